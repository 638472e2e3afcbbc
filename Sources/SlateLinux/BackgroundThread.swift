import Glibc

/// Starts work on a thread of its own (pthread), for what must never block the
/// event loop: sound playback, capture and encoding.
enum BackgroundThread {
    private final class Work {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread; its handle, to join, or why it could not start.
    /// The thread starts with every signal blocked, so SIGINT and SIGTERM always
    /// reach the thread that handles them.
    static func spawn(_ body: @escaping () -> Void) -> Result<pthread_t, OperationError> {
        let context = Unmanaged.passRetained(Work(body)).toOpaque()
        let started = withSignalsBlocked {
            Syscall.startThread(
                { context in
                    Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                    return nil
                }, context)
        }
        return started.mapError { error in
            Unmanaged<Work>.fromOpaque(context).release()
            return OperationError("start a thread", cause: SystemCallError("pthread_create", errno: error))
        }
    }
}

/// A pthread mutex with a condition variable, freed with the object.
final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a `broadcast`; call with the lock held.
    func wait() { pthread_cond_wait(condition, mutex) }

    func broadcast() { pthread_cond_broadcast(condition) }
}


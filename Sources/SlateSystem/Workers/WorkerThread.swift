import Synchronization

/// A thread of the daemon's that owns one resource (the camera, the take
/// pipeline, the exports, the sound card): its body holds that resource and
/// takes its work from a `Mailbox`, so nothing else touches it. The thread
/// starts with every signal blocked, so SIGINT and SIGTERM always reach the
/// thread that handles them, and carries `name` (as `top -H` shows it).
package final class WorkerThread: Sendable {
    private let handle: Mutex<ThreadHandle?>

    /// Starts `body` on a new thread at `niceness` (where the process may set
    /// it: a negative one needs CAP_SYS_NICE or RLIMIT_NICE), taking part in
    /// `clock`'s time when given (`RigClock.enter`).
    package init(
        name: String, niceness: Int32 = 0, clock: (any RigClock)? = nil, _ body: sending @escaping () -> Void
    ) throws(OperationError) {
        clock?.admit()
        let started = Syscall.startThread { [name] in
            Syscall.nameThread(String(name.prefix(15)))
            if niceness != 0 { Syscall.setThreadNiceness(niceness) }
            clock?.enter(admitted: true)
            body()
            clock?.leave()
        }
        switch started {
        case .success(let thread): handle = Mutex(thread)
        case .failure(let error):
            clock?.enter(admitted: true)
            clock?.leave()
            throw OperationError("start the \(name) thread", cause: SystemCallError("pthread_create", errno: error))
        }
    }

    deinit { join() }

    /// Waits for the thread's body to return (at once when it has, or was joined).
    package func join() {
        guard
            let thread = handle.withLock({ handle in
                defer { handle = nil }; return handle
            })
        else { return }
        Syscall.joinThread(thread)
    }
}

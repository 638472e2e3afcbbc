import Synchronization

/// The framing preview: JPEG pictures from the take pipeline to whoever
/// watches. The pipeline makes a picture only while `isWatched`, at most
/// `rate` a second; each watcher is handed the newest picture, never a queue
/// of old ones, so a slow watcher skips pictures and holds nothing up.
public final class PreviewFeed: Sendable {
    /// Pictures a second, at most.
    public static let rate = 5
    /// The widest picture; narrower frames keep their width.
    public static let width = 640

    private struct State {
        var watchers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
        var next = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let watchers = Atomic<Int>(0)

    public init() {}

    /// Whether anyone watches: read by the pipeline for every frame.
    public var isWatched: Bool { watchers.load(ordering: .relaxed) > 0 }

    /// How many watch now.
    public var watcherCount: Int { watchers.load(ordering: .relaxed) }

    /// Hands `jpeg` to every watcher.
    public func publish(_ jpeg: [UInt8]) {
        state.withLock { state in
            for watcher in state.watchers.values { watcher.yield(jpeg) }
        }
    }

    /// The pictures from now; the feed is watched until the caller stops
    /// iterating. It ends at once when the feed is closed.
    public func watch() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            let id = state.next
            state.next += 1
            state.watchers[id] = continuation
            watchers.add(1, ordering: .relaxed)
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            state.withLock { state in
                if state.watchers.removeValue(forKey: id) != nil { watchers.subtract(1, ordering: .relaxed) }
            }
        }
        return stream
    }

    /// Ends every watcher's stream; no more are taken.
    public func close() {
        let ended = state.withLock { state in
            state.closed = true
            defer { state.watchers.removeAll() }
            watchers.store(0, ordering: .relaxed)
            return Array(state.watchers.values)
        }
        for watcher in ended { watcher.finish() }
    }
}

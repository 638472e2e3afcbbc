import NIOCore
import Synchronization

/// The page's open connections, at most `limit` of them. A connection waits
/// on its client (for a request's head or body) or on the server (a response
/// being made or streamed); at the cap, a new connection takes the place of
/// the one that has waited longest on its client, and is refused when every
/// connection is busy with a response. Of them, at most `streams` carry a
/// stream (events, the preview).
final class ConnectionRegistry: Sendable {
    /// What became of a new connection.
    enum Admission {
        /// It is open as `id`; `evicted` is to be closed to make room for it.
        case admitted(id: Int, evicted: (any Channel)?)
        /// Every open connection is busy with a response.
        case refused
    }

    private struct Entry {
        var channel: any Channel
        /// Since when it waits on its client; nil while a response is made or streamed.
        var waitingSince: NIODeadline?
        /// Whether the connection carries a stream.
        var streaming = false
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
    }

    let limit: Int
    let streams: Int
    private let state = Mutex(State())

    init(limit: Int, streams: Int) {
        self.limit = limit
        self.streams = streams
    }

    /// Opens `channel`, which waits on its client from `now`.
    func admit(_ channel: any Channel, at now: NIODeadline) -> Admission {
        state.withLock { state in
            var evicted: (any Channel)?
            if state.entries.count >= limit {
                let waiting = state.entries.compactMap { id, entry in entry.waitingSince.map { (id, $0) } }
                guard let (oldest, _) = waiting.min(by: { $0.1 < $1.1 }) else { return .refused }
                evicted = state.entries.removeValue(forKey: oldest)?.channel
            }
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(channel: channel, waitingSince: now)
            return .admitted(id: id, evicted: evicted)
        }
    }

    /// Connection `id` waits on its client since `since`, or (nil) on the server.
    func wait(_ id: Int, since: NIODeadline?) {
        state.withLock { $0.entries[id]?.waitingSince = since }
    }

    /// Connection `id` asks to carry a stream: nil when it may, or why not.
    func openStream(_ id: Int) -> String? {
        state.withLock { state in
            guard state.entries.values.count(where: \.streaming) < streams else {
                return "the page has its \(streams) streams (events, previews) open: close a page elsewhere"
            }
            state.entries[id]?.streaming = true
            return nil
        }
    }

    /// Connection `id`'s stream ended.
    func closeStream(_ id: Int) {
        state.withLock { $0.entries[id]?.streaming = false }
    }

    /// Connection `id` closed.
    func remove(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }
}

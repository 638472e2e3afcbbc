import SlateCore
import SlateSystem
import Synchronization

/// What `slate run` and its page server share. The daemon publishes the rig's
/// status after each dispatch and each report line as it is printed, and
/// takes the actions clients asked for; the server reads the status, streams
/// lines and status changes to its clients, and hands actions in. Neither side
/// waits on the other: a client that falls behind loses its oldest events.
public final class StatusBoard: Sendable {
    /// One Server-Sent Event, its data already JSON.
    public struct Event: Sendable, Equatable {
        /// `line`, `status`, `meter` or `heartbeat`.
        public var name: String
        public var data: String
    }

    /// A `heartbeat` event's data: the time on the status's clock, to the millisecond.
    struct Heartbeat: Encodable {
        var now: Double
    }

    /// What became of an action a client asked for.
    public enum Answer: Sendable, Equatable {
        /// It ran; the report lines it gave at once.
        case ran([ReportLine])
        /// It is not an action of the profile, or it was not run; why.
        case refused(String)
    }

    /// What a client asks of the daemon.
    public enum Asked: Sendable, Equatable {
        /// An action, as the text names it.
        case action(String)
        /// The prompter's script was saved: read it again.
        case readScript
    }

    /// An action waiting for the daemon, and the client waiting for its answer.
    public struct Request: Sendable {
        public let asked: Asked
        let reply: @Sendable (Answer) -> Void

        /// The action's text, when an action is asked.
        public var action: String? { if case .action(let text) = asked { text } else { nil } }

        /// Gives the client its answer; call once.
        public func answer(_ answer: Answer) { reply(answer) }
    }

    /// The report lines a new client is sent first.
    public static let backlogLimit = 50
    /// The events a client may fall behind by before its oldest are dropped.
    public static let clientBuffer = 512

    private struct State {
        var status: RigStatus?
        var thumbnails: [Int: String] = [:]
        var videos: [Int: String] = [:]
        var prompter: PrompterSource?
        var script: String?
        var backlog: [Event] = []
        var clients: [Int: AsyncStream<Event>.Continuation] = [:]
        var nextClient = 0
        var requests: [Request] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let origin: Mutex<Instant>
    private let wake: @Sendable () -> Void

    /// `origin` is the report lines' origin (their `t` counts from it), which
    /// statuses are stamped on; `wake` tells the daemon an action waits.
    public init(origin: Instant, wake: @escaping @Sendable () -> Void) {
        self.origin = Mutex(origin)
        self.wake = wake
    }

    /// The report lines count from `origin` now (a replay started).
    public func setOrigin(_ origin: Instant) { self.origin.withLock { $0 = origin } }

    /// Seconds since the origin.
    private func clock() -> Double { (MonotonicClock.now() - origin.withLock { $0 }).inSeconds() }

    // MARK: The daemon's side

    /// A new status, with the path of each listed take's thumbnail and
    /// file: sent to every client when it differs from the last one.
    public func publish(_ status: RigStatus, thumbnails: [Int: String], videos: [Int: String] = [:]) {
        var stamped = status
        stamped.now = 0
        let now = clock()
        state.withLock { state in
            state.thumbnails = thumbnails
            state.videos = videos
            guard !state.closed, state.status != stamped else { return }
            state.status = stamped
            stamped.now = now
            let event = Event(name: "status", data: JSONLine.encode(stamped))
            for client in state.clients.values { client.yield(event) }
        }
    }

    /// A report line, as `--json` prints it: sent to every client and kept for new ones.
    public func publish(_ line: ReportLine) {
        let event = Event(name: "line", data: JSONLine.encode(line))
        state.withLock { state in
            guard !state.closed else { return }
            state.backlog.append(event)
            if state.backlog.count > Self.backlogLimit { state.backlog.removeFirst(state.backlog.count - Self.backlogLimit) }
            for client in state.clients.values { client.yield(event) }
        }
    }

    /// The sound's level now: sent to every client, kept for none.
    public func publish(meter: MeterReading) {
        let event = Event(name: "meter", data: JSONLine.encode(meter))
        state.withLock { state in
            guard !state.closed else { return }
            for client in state.clients.values { client.yield(event) }
        }
    }

    /// The daemon's loop is alive: every client gets a `heartbeat` event with
    /// the time (`{"now":12.5}`, as a status's), kept for none. A page that
    /// hears nothing for a while shows the rig lost.
    public func publishHeartbeat() {
        let event = Event(name: "heartbeat", data: JSONLine.encode(Heartbeat(now: (clock() * 1000).rounded() / 1000)))
        state.withLock { state in
            guard !state.closed else { return }
            for client in state.clients.values { client.yield(event) }
        }
    }

    /// The prompter's script as the daemon read it; nil without a prompter.
    public func publish(prompter: PrompterSource?) {
        let json = prompter.map { JSONLine.encode($0.script) }
        state.withLock { state in
            state.prompter = prompter
            state.script = json
        }
    }

    /// The actions asked for since the last call, oldest first.
    public func takeRequests() -> [Request] {
        state.withLock { state in
            defer { state.requests.removeAll() }
            return state.requests
        }
    }

    /// The daemon is stopping: every client's stream ends and waiting actions are refused.
    public func close() {
        let (clients, requests) = state.withLock { state in
            state.closed = true
            defer {
                state.clients.removeAll()
                state.requests.removeAll()
            }
            return (Array(state.clients.values), state.requests)
        }
        for client in clients { client.finish() }
        for request in requests { request.answer(.refused("slate run is stopping")) }
    }

    // MARK: The server's side

    /// The status now, stamped with the clock; nil before the daemon published one.
    public var status: RigStatus? {
        let now = clock()
        return state.withLock { state in
            guard var status = state.status else { return nil }
            status.now = now
            return status
        }
    }

    /// The prompter's script as JSON; nil without a prompter.
    public var script: String? { state.withLock { $0.script } }

    /// The prompter's script file and text; nil without a prompter.
    public var prompter: PrompterSource? { state.withLock { $0.prompter } }

    /// The thumbnail file of the listed take `number`.
    public func thumbnail(ofTake number: Int) -> String? { state.withLock { $0.thumbnails[number] } }

    /// The path of take `number`'s file, when it is listed.
    public func video(ofTake number: Int) -> String? { state.withLock { $0.videos[number] } }

    /// How many clients receive events now.
    public var clientCount: Int { state.withLock { $0.clients.count } }

    /// A stream of the events from now, after the last status and the backlog of lines.
    /// It ends when the daemon stops, or is dropped when the caller stops iterating.
    public func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(Self.clientBuffer))
        let now = clock()
        let id: Int? = state.withLock { state in
            guard !state.closed else { return nil }
            if var status = state.status {
                status.now = now
                continuation.yield(Event(name: "status", data: JSONLine.encode(status)))
            }
            for event in state.backlog { continuation.yield(event) }
            let id = state.nextClient
            state.nextClient += 1
            state.clients[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.clients.removeValue(forKey: id) }
        }
        return stream
    }

    /// Hands `action` to the daemon and waits for its answer.
    public func ask(_ action: String) async -> Answer { await ask(.action(action)) }

    /// Hands `asked` to the daemon and waits for its answer.
    public func ask(_ asked: Asked) async -> Answer {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let request = Request(asked: asked) { continuation.resume(returning: $0) }
            let accepted = state.withLock { state in
                guard !state.closed else { return false }
                state.requests.append(request)
                return true
            }
            if accepted { wake() } else { request.answer(.refused("slate run is stopping")) }
        }
    }
}

/// The prompter's script as the daemon read it: the file, its text, its
/// lines, and whether the page may save over it.
public struct PrompterSource: Sendable {
    public var path: String
    public var text: String
    public var script: PrompterScript
    public var editable: Bool

    public init(path: String, text: String, script: PrompterScript, editable: Bool = true) {
        self.path = path
        self.text = text
        self.script = script
        self.editable = editable
    }
}

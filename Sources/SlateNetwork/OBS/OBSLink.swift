import FoundationEssentials
import Logging
import NIOCore
import NIOPosix
import SlateCore
import Synchronization

/// A link to one OBS through obs-websocket 5. It connects on a task of its own,
/// answers OBS's Hello (with the password when OBS asks for one) and, once
/// identified, sends requests and matches each response to its request by id.
/// When OBS is absent or goes away the link tries again after 1 s, then 2, 4 …
/// up to 30 s; a request made while it is not connected fails at once. OBS's
/// 4011 SessionInvalidated (its Kick button) ends the link, as the protocol asks.
///
/// Async code calls `send`. A thread that must not wait calls `enqueue`: those
/// requests go out one at a time, each after the previous one's response, so
/// OBS does them in the order they were made, and each result goes to
/// `onResult`. `onResult` and `onStatus` are called on the link's tasks and
/// should only hand what they get on. `stop()` ends the link.
public final class OBSLink: Sendable {
    /// Where the link stands.
    public enum Status: Sendable, Equatable {
        /// The first attempt is under way.
        case connecting
        /// Identified: requests are sent.
        case connected
        /// Not connected, and why; the link tries again unless it was stopped or OBS invalidated the session.
        case disconnected(OBSError)
    }

    /// The target, `ws://127.0.0.1:4455` say.
    public let url: String
    private let password: String?
    private let requestTimeout: Duration
    private let handshakeTimeout: Duration
    private let logger: Logger
    private let onStatus: @Sendable (Status) -> Void
    private let onResult: @Sendable (OBSResult) -> Void
    private let state = Mutex(State())
    private let queue: AsyncStream<Queued>.Continuation
    private let tasks = Mutex<[Task<Void, Never>]>([])

    /// The largest message taken from OBS (a scene list can be large).
    private static let maxMessageSize = 1 << 24

    private struct State {
        var status = Status.connecting
        /// The frames to send on the identified connection; nil while not connected.
        var outgoing: AsyncStream<String>.Continuation?
        var pending: [String: Pending] = [:]
        var serial = 0
        var stopped = false
    }

    /// A request sent and not yet answered.
    private struct Pending: Sendable {
        let requestType: String
        let continuation: CheckedContinuation<Result<OBSResponse, OBSError>, Never>
        var timer: Task<Void, Never>?
    }

    /// A request handed to `enqueue`.
    private struct Queued: Sendable {
        let serial: Int
        let requestType: String
        let data: JSONValue?
    }

    /// How one connection ended, or the handshake watchdog's all-clear.
    private enum Ending: Sendable {
        case closed(OBSSocket.Closing?)
        case identifiedInTime
    }

    /// Starts the link; it connects at once and keeps trying.
    /// - Parameters:
    ///   - url: the obs-websocket server, `ws://HOST:PORT`.
    ///   - password: the server's password, if it asks for one.
    ///   - requestTimeout: how long a request waits for its response.
    ///   - handshakeTimeout: how long connecting and identifying may take.
    ///   - onStatus: called when the status changes.
    ///   - onResult: called with the result of each request handed to `enqueue`.
    public init(
        url: String, password: String? = nil, requestTimeout: Duration = .seconds(10),
        handshakeTimeout: Duration = .seconds(10), logger: Logger = Logger(label: "slate.obs"),
        onStatus: @escaping @Sendable (Status) -> Void = { _ in },
        onResult: @escaping @Sendable (OBSResult) -> Void = { _ in }
    ) {
        self.url = url
        self.password = password
        self.requestTimeout = requestTimeout
        self.handshakeTimeout = handshakeTimeout
        self.logger = logger
        self.onStatus = onStatus
        self.onResult = onResult
        let (queued, queue) = AsyncStream.makeStream(of: Queued.self)
        self.queue = queue
        let connecting = Task { await self.run() }
        let dispatching = Task {
            for await request in queued {
                let outcome: Result<OBSResponse, OBSError>
                do throws(OBSError) {
                    outcome = .success(try await self.send(request.requestType, data: request.data))
                } catch {
                    outcome = .failure(error)
                }
                self.onResult(
                    OBSResult(serial: request.serial, url: self.url, requestType: request.requestType, outcome: outcome))
            }
        }
        tasks.withLock { $0 = [connecting, dispatching] }
    }

    /// Where the link stands now.
    public var status: Status { state.withLock { $0.status } }

    /// Sends a request and waits for OBS's response. Throws at once when the link
    /// is not connected; a response whose `succeeded` is false is returned, not thrown.
    public func send(_ requestType: String, data: JSONValue? = nil) async throws(OBSError) -> OBSResponse {
        let id = UUID().uuidString
        let frame = OBSMessage.request(.init(requestType: requestType, requestId: id, requestData: data)).json()
        let result = await withCheckedContinuation { continuation in
            let refusal: OBSError? = state.withLock { state in
                if state.stopped { return .stopped(url: url) }
                guard let outgoing = state.outgoing else {
                    if case .disconnected(let why) = state.status { return .notConnected(url: url, because: why) }
                    return .notConnected(url: url, because: nil)
                }
                state.pending[id] = Pending(requestType: requestType, continuation: continuation)
                outgoing.yield(frame)
                return nil
            }
            if let refusal {
                continuation.resume(returning: .failure(refusal))
                return
            }
            let timer = Task { [weak self, url, requestTimeout] in
                do { try await Task.sleep(for: requestTimeout) } catch { return }
                self?.settle(id, .failure(.timedOut(url: url, requestType: requestType, after: requestTimeout)))
            }
            let waiting = state.withLock { state in
                state.pending[id]?.timer = timer
                return state.pending[id] != nil
            }
            if !waiting { timer.cancel() }
        }
        return try result.get()
    }

    /// Hands a request to the link without waiting; its result goes to `onResult`
    /// with the number returned here.
    @discardableResult
    public func enqueue(_ requestType: String, data: JSONValue? = nil) -> Int {
        let serial = state.withLock {
            $0.serial += 1
            return $0.serial
        }
        if case .terminated = queue.yield(Queued(serial: serial, requestType: requestType, data: data)) {
            onResult(OBSResult(serial: serial, url: url, requestType: requestType, outcome: .failure(.stopped(url: url))))
        }
        return serial
    }

    /// Closes the connection and stops trying; requests already enqueued fail.
    public func stop() {
        state.withLock { $0.stopped = true }
        queue.finish()
        tasks.withLock { $0.first?.cancel() }
    }

    private var isConnected: Bool { state.withLock { $0.outgoing != nil } }

    /// Connects, and connects again after each ending, until stopped.
    private func run() async {
        var pause = Duration.seconds(1)
        while !Task.isCancelled {
            let ending = await attempt()
            let wasConnected = disconnected(Task.isCancelled ? .stopped(url: url) : ending)
            if case .closed(_, 4011?, _) = ending { return }
            if wasConnected { pause = .seconds(1) }
            logger.debug("OBS link waits before connecting again", metadata: ["url": "\(url)", "pause": "\(pause)"])
            do { try await Task.sleep(for: pause) } catch { break }
            pause = min(pause * 2, .seconds(30))
        }
        disconnected(.stopped(url: url))
    }

    /// Records the end of a connection or attempt and fails what waited on it;
    /// tells whether the connection had been identified.
    @discardableResult
    private func disconnected(_ failure: OBSError) -> Bool {
        let (wasConnected, lost, changed) = state.withLock { state in
            let wasConnected = state.outgoing != nil
            state.outgoing?.finish()
            state.outgoing = nil
            let lost = Array(state.pending.values)
            state.pending = [:]
            let changed = state.status != .disconnected(failure)
            state.status = .disconnected(failure)
            return (wasConnected, lost, changed)
        }
        for request in lost {
            request.timer?.cancel()
            request.continuation.resume(
                returning: .failure(.connectionLost(url: url, requestType: request.requestType, because: failure)))
        }
        if changed {
            logger.info("OBS link is down", metadata: ["url": "\(url)", "why": "\(failure)"])
            onStatus(.disconnected(failure))
        }
        return wasConnected
    }

    /// One connection, from connecting to its end; returns how it ended.
    private func attempt() async -> OBSError {
        do {
            let frame = try await withThrowingTaskGroup(of: Ending.self) { group in
                group.addTask {
                    .closed(
                        try await OBSSocket.connect(url: self.url, maxMessageSize: Self.maxMessageSize, closeTimeout: .seconds(2))
                        {
                            inbound, outbound in
                            try await self.converse(inbound, outbound)
                        })
                }
                group.addTask {
                    try await Task.sleep(for: self.handshakeTimeout)
                    guard self.isConnected else {
                        throw OBSError.unreachable(
                            url: self.url, reason: "no obs-websocket handshake within \(self.handshakeTimeout)")
                    }
                    return .identifiedInTime
                }
                while let ending = try await group.next() {
                    if case .closed(let frame) = ending {
                        group.cancelAll()
                        return frame
                    }
                }
                return nil
            }
            guard let frame else { return .closed(url: url, code: nil, reason: nil) }
            return frame.code == 4009
                ? .authenticationFailed(url: url) : .closed(url: url, code: frame.code, reason: frame.reason)
        } catch let error as OBSError {
            return error
        } catch {
            let reason = Self.describe(error)
            return isConnected ? .closed(url: url, code: nil, reason: reason) : .unreachable(url: url, reason: reason)
        }
    }

    /// A network error in a few words: "connection refused" rather than NIO's whole story.
    private static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return describe(first.error) }
            if let failure = error.dnsAError ?? error.dnsAAAAError { return "its host name was not found (\(failure))" }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        return "\(error)"
    }

    /// The exchange on one websocket: Hello, Identify, Identified, then requests and responses.
    private func converse(_ messages: OBSSocket.Inbound, _ outbound: OBSSocket.Writer) async throws {
        guard let first = try await messages.next() else { return }
        guard case .hello(let hello) = try message(first) else {
            throw OBSError.protocolError(url: url, detail: "its first message is not a Hello")
        }
        var authentication: String?
        if let challenge = hello.authentication {
            guard let password else { throw OBSError.passwordRequired(url: url) }
            authentication = OBSAuthentication.response(
                password: password, salt: challenge.salt, challenge: challenge.challenge)
        }
        try await outbound.send(OBSMessage.identify(.init(authentication: authentication)).json())
        guard let second = try await messages.next() else { return }
        guard case .identified = try message(second) else {
            throw OBSError.protocolError(url: url, detail: "it answered Identify with something other than Identified")
        }
        let (frames, outgoing) = AsyncStream.makeStream(of: String.self)
        let identified = state.withLock { state in
            guard !state.stopped else { return false }
            state.outgoing = outgoing
            state.status = .connected
            return true
        }
        guard identified else { return }
        logger.info("OBS link is up", metadata: ["url": "\(url)", "obs-websocket": "\(hello.obsWebSocketVersion ?? "?")"])
        onStatus(.connected)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await frame in frames { try await outbound.send(frame) }
            }
            while let next = try await messages.next() {
                do {
                    if case .requestResponse(let response) = try message(next) {
                        settle(response.requestId, .success(OBSResponse(response)))
                    }
                } catch {
                    logger.warning("OBS sent a message that is not obs-websocket's", metadata: ["url": "\(url)"])
                }
            }
            group.cancelAll()
        }
    }

    /// Reads one message of the protocol.
    private func message(_ frame: OBSSocket.Message) throws(OBSError) -> OBSMessage {
        guard case .text(let text) = frame else { throw .protocolError(url: url, detail: "it sent a binary frame") }
        do {
            return try OBSMessage(json: text)
        } catch {
            throw .protocolError(url: url, detail: "it sent \(text.prefix(80).debugDescription), not a message")
        }
    }

    /// Ends the wait of request `id`, if it still waits.
    private func settle(_ id: String, _ result: Result<OBSResponse, OBSError>) {
        guard let request = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        request.timer?.cancel()
        request.continuation.resume(returning: result)
    }
}

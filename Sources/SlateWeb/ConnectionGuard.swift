import NIOCore
import NIOHTTP1
import SlateCore

/// One page connection, watched between SwiftNIO's HTTP parser and
/// Hummingbird. It holds the connection to the page's budgets: a request's
/// head must be complete within `head` of the connection opening, or within
/// `idle` of the previous response; its body within `body` of the head; no
/// time runs while a response is made or streamed, but one write of it may
/// wait at most `stall` on the client. It takes the connection's place among
/// the page's connections, and a stream's among the page's streams; it
/// refuses at once a request for a host that is not the page's, declaring a
/// body larger than any route reads, or for a stream beyond the budget.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// What the connection waits for when its time runs out.
    private enum Wait {
        case head, idle, body, refusalRead
    }

    private let budgets: PageBudgets
    private let registry: ConnectionRegistry
    private let address: BoundAddress
    private let bodyLimits: BodyLimits
    private let streamPaths: Set<String>
    /// Its place among the page's connections, once admitted.
    private var id: Int?
    /// Requests whose head arrived and whose response has not ended.
    private var unanswered = 0
    /// Whether the latest request's body is still arriving.
    private var readingBody = false
    /// Whether a response has started and not ended.
    private var responding = false
    /// Whether a response was sent, so that the next head is held to `idle`.
    private var answeredOne = false
    /// Whether it was refused or ran out of time: what arrives is dropped until it closes.
    private var ending = false
    /// Whether the response under way, or asked for, is a stream.
    private var streaming = false
    private var timer: Scheduled<Void>?
    /// Writes of the response not yet taken by the client's socket, and the
    /// time they may still wait without any being taken.
    private var unwritten = 0
    private var stallTimer: Scheduled<Void>?

    init(
        budgets: PageBudgets, registry: ConnectionRegistry, address: BoundAddress, bodyLimits: BodyLimits,
        streamPaths: Set<String>
    ) {
        self.budgets = budgets
        self.registry = registry
        self.address = address
        self.bodyLimits = bodyLimits
        self.streamPaths = streamPaths
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        stallTimer?.cancel()
        if let id { registry.remove(id) }
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        stallTimer?.cancel()
    }

    private func opened(_ context: ChannelHandlerContext) {
        guard id == nil, !ending else { return }
        let now = NIODeadline.now()
        switch registry.admit(context.channel, at: now) {
        case .refused:
            end(
                context, .serviceUnavailable,
                "the page has its \(registry.limit) connections open, each busy with a response (event streams, previews): close a page elsewhere",
                linger: false)
        case .admitted(let id, let evicted):
            self.id = id
            evicted?.close(promise: nil)
            waitForHead(context, since: now)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !ending else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if let (status, reason) = refusal(of: head, local: context.channel.localAddress) ?? streamRefusal(of: head) {
                if unanswered > 0 {
                    // A request pipelined behind a response under way: no room to say why.
                    ending = true
                    context.close(promise: nil)
                } else {
                    end(context, status, reason, linger: true)
                }
                return
            }
            unanswered += 1
            readingBody = true
            let now = NIODeadline.now()
            if let id { registry.wait(id, since: now) }
            arm(context, .body, at: now + TimeAmount(budgets.body))
        case .body:
            break
        case .end:
            readingBody = false
            if unanswered > 0 {
                timer?.cancel()
                if let id { registry.wait(id, since: nil) }
            } else {
                waitForHead(context, since: .now())
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !ending else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head: responding = true
        case .body:
            writeWatched(context, data, promise: promise)
            return
        case .end:
            responding = false
            if streaming, let id {
                streaming = false
                registry.closeStream(id)
            }
            unanswered = max(0, unanswered - 1)
            answeredOne = true
            if unanswered == 0, !readingBody { waitForHead(context, since: .now()) }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A stream's client sends nothing more once it has asked: its end of
        // the connection closing means it is gone.
        if ending || streaming, case ChannelEvent.inputClosed = event {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Why a request is refused before anything reads it: its Host, or the body it declares.
    private func refusal(of head: HTTPRequestHead, local: SocketAddress?) -> (HTTPResponseStatus, String)? {
        guard let hosts = address.hosts else { return (.serviceUnavailable, "the page is starting") }
        switch hosts.check(head.headers["Host"], http11: head.version.major > 1 || head.version.minor >= 1, local: local) {
        case .ours: break
        case .malformed(let reason): return (.badRequest, reason)
        case .elsewhere(let reason): return (.misdirectedRequest, reason)
        }
        let bodyLimit = bodyLimits.limit(for: Self.path(of: head.uri))
        if let declared = head.headers["Content-Length"].first.flatMap({ Int($0) }), declared > bodyLimit {
            return (
                .payloadTooLarge,
                "the body is over \(bodyLimit) bytes (Content-Length: \(declared)); no request of the page sends more"
            )
        }
        return nil
    }

    /// Why a request for a stream is refused: the page's streams are all open.
    private func streamRefusal(of head: HTTPRequestHead) -> (HTTPResponseStatus, String)? {
        guard streamPaths.contains(Self.path(of: head.uri)), let id else { return nil }
        guard let reason = registry.openStream(id) else {
            streaming = true
            return nil
        }
        return (.serviceUnavailable, reason)
    }

    /// A request target's path, without its query.
    private static func path(of target: String) -> String {
        String(target.prefix { $0 != "?" })
    }

    /// Writes a part of the response; the connection is closed when the
    /// client's socket takes none of what waits for `stall`.
    private func writeWatched(_ context: ChannelHandlerContext, _ data: NIOAny, promise: EventLoopPromise<Void>?) {
        let written = promise ?? context.eventLoop.makePromise()
        unwritten += 1
        if stallTimer == nil { armStall(context) }
        written.futureResult.assumeIsolated().whenComplete { [self] _ in
            unwritten -= 1
            stallTimer?.cancel()
            stallTimer = nil
            if unwritten > 0 { armStall(context) }
        }
        context.write(data, promise: written)
    }

    private func armStall(_ context: ChannelHandlerContext) {
        stallTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: .now() + TimeAmount(budgets.stall)) {
            [self] in
            stallTimer = nil
            ending = true
            context.close(promise: nil)
        }
    }

    /// Waits for the next request's head, since `since`.
    private func waitForHead(_ context: ChannelHandlerContext, since: NIODeadline) {
        if let id { registry.wait(id, since: since) }
        if answeredOne {
            arm(context, .idle, at: since + TimeAmount(budgets.idle))
        } else {
            arm(context, .head, at: since + TimeAmount(budgets.head))
        }
    }

    private func arm(_ context: ChannelHandlerContext, _ wait: Wait, at deadline: NIODeadline) {
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            timer = nil
            expired(context, wait)
        }
    }

    private func expired(_ context: ChannelHandlerContext, _ wait: Wait) {
        switch wait {
        case .idle, .refusalRead:
            context.close(promise: nil)
        case .head:
            end(context, .requestTimeout, "the request's head did not arrive within \(Self.text(budgets.head))", linger: false)
        case .body where !responding && unanswered == 1:
            end(
                context, .requestTimeout, "the request's body did not arrive within \(Self.text(budgets.body)) of its head",
                linger: false)
        case .body:
            ending = true
            context.close(promise: nil)
        }
    }

    /// Answers `status` with `{"error": reason}` and closes the connection as
    /// soon as that is written, or (`linger`) half-closes it and closes it
    /// after `budgets.linger`, for the client to read the answer while what
    /// it still sends is dropped.
    private func end(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ reason: String, linger: Bool) {
        ending = true
        if let id { registry.wait(id, since: .distantPast) }
        let body = context.channel.allocator.buffer(string: JSONLine.encode(["error": reason]) + "\n")
        let headers = HTTPHeaders([
            ("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Content-Length", "\(body.readableBytes)"),
            ("Connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        let outputClosed = context.eventLoop.makePromise(of: Void.self)
        context.close(mode: .output, promise: outputClosed)
        if linger {
            arm(context, .refusalRead, at: .now() + TimeAmount(budgets.linger))
        } else {
            outputClosed.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
    }

    /// "10 s", "500 ms".
    private static func text(_ duration: Duration) -> String {
        let milliseconds = duration / .milliseconds(1)
        return milliseconds.truncatingRemainder(dividingBy: 1000) == 0
            ? "\(Int(milliseconds / 1000)) s" : "\(Int(milliseconds)) ms"
    }
}

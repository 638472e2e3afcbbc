import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// One websocket connection to an obs-websocket server, on swift-nio's own
/// client upgrader: `ws://` only, as obs-websocket 5 serves no TLS. Messages
/// split into fragments are joined up to a size; pings are answered; a close
/// from the server is answered and ends the connection, whose code and reason
/// `connect` returns.
enum OBSSocket {
    /// A message from the server.
    enum Message: Sendable {
        case text(String)
        case binary
    }

    /// The close frame the server sent: its code and reason.
    struct Closing: Sendable, Equatable {
        var code: Int?
        var reason: String?
    }

    /// The connection refused or failed before it was a websocket.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends text messages and the close.
    struct Writer: Sendable {
        fileprivate let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

        func send(_ text: String) async throws {
            try await write(.text, ByteBuffer(string: text))
        }

        fileprivate func write(_ opcode: WebSocketOpcode, _ data: ByteBuffer) async throws {
            // A client masks every frame it sends (RFC 6455, 5.3).
            try await outbound.write(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data))
        }

        fileprivate func close(_ code: WebSocketErrorCode) async throws {
            var data = ByteBuffer()
            data.write(webSocketErrorCode: code)
            try await write(.connectionClose, data)
        }
    }

    private enum Upgrade: Sendable {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// Connects to `url` (`ws://HOST:PORT[/PATH]`), runs `body` with the
    /// server's messages and a writer, closes, and returns the server's close
    /// frame when it sent one. When `body` ends first, the client closes
    /// (1000) and waits up to `closeTimeout` for the server's answer.
    static func connect(
        url: String, maxMessageSize: Int, closeTimeout: Duration,
        _ body: @Sendable (AsyncThrowingStream<Message, any Error>, Writer) async throws -> Void
    ) async throws -> Closing? {
        let target = try Target(url)
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: target.host, port: target.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxMessageSize) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOWebSocketFrameAggregator(
                                    minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 1 << 16,
                                    maxAccumulatedFrameSize: maxMessageSize))
                            return .websocket(
                                try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
                        }
                    }
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: target.hostHeader)
                    headers.add(name: "Content-Length", value: "0")
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Upgrade>(
                        upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers),
                        upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in
                            channel.close(promise: nil)
                            return channel.eventLoop.makeSucceededFuture(.refused)
                        })
                    // OBS sends its Hello in the same read as the upgrade's response: those bytes go on to the websocket.
                    var pipeline = NIOUpgradableHTTPClientPipelineConfiguration(upgradeConfiguration: configuration)
                    pipeline.leftOverBytesStrategy = .forwardBytes
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(configuration: pipeline)
                }
            }
        guard case .websocket(let channel) = try await upgrade.get() else {
            throw Refusal(description: "it answered without upgrading to a websocket")
        }
        return try await channel.executeThenClose { frames, outbound in
            let writer = Writer(outbound: outbound)
            let (messages, continuation) = AsyncThrowingStream.makeStream(of: Message.self)
            let serverClosed = Flag()
            return try await withThrowingTaskGroup(of: Closing?.self) { group in
                group.addTask { try await read(frames, into: continuation, answering: writer, closed: serverClosed) }
                do {
                    try await body(messages, writer)
                } catch {
                    if !serverClosed.isSet { try? await writer.close(.goingAway) }
                    group.cancelAll()
                    throw error
                }
                // The body ended: the server closed or went away, or the client is done and closes.
                if !serverClosed.isSet { try? await writer.close(.normalClosure) }
                group.addTask {
                    try await Task.sleep(for: closeTimeout)
                    return nil
                }
                let closing = (try? await group.next()) ?? nil
                group.cancelAll()
                return closing
            }
        }
    }

    /// Hands the server's messages on and answers its pings, until it closes
    /// (its close frame is answered and returned) or the connection ends.
    private static func read(
        _ frames: NIOAsyncChannelInboundStream<WebSocketFrame>,
        into messages: AsyncThrowingStream<Message, any Error>.Continuation,
        answering writer: Writer, closed: Flag
    ) async throws -> Closing? {
        do {
            for try await frame in frames {
                switch frame.opcode {
                case .text: messages.yield(.text(String(buffer: frame.unmaskedData)))
                case .binary: messages.yield(.binary)
                case .ping: try await writer.write(.pong, frame.unmaskedData)
                case .connectionClose:
                    var data = frame.unmaskedData
                    let code = data.readWebSocketErrorCode()
                    let reason = data.readString(length: data.readableBytes)
                    closed.set()
                    try? await writer.close(code ?? .normalClosure)
                    messages.finish()
                    return Closing(code: code.map { Int(UInt16(webSocketErrorCode: $0)) }, reason: reason)
                default: continue
                }
            }
            messages.finish()
            return nil
        } catch {
            messages.finish(throwing: error)
            throw error
        }
    }

    /// Set once, by the task that reads, when the server's close has been answered.
    private final class Flag: Sendable {
        private let value = Atomic(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// Where `ws://HOST:PORT[/PATH]` points (`OBSSpec.targetProblem` has checked its form).
    struct Target {
        var host: String
        var port: Int
        var path: String

        init(_ url: String) throws(Refusal) {
            guard url.hasPrefix("ws://") else { throw Refusal(description: "it is not a ws:// address") }
            let rest = url.dropFirst(5)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<slash]
            path = slash == rest.endIndex ? "/" : String(rest[slash...])
            guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
                (1...65535).contains(port)
            else { throw Refusal(description: "it names no port") }
            var host = authority[..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
            guard !host.isEmpty else { throw Refusal(description: "it names no host") }
            self.host = String(host)
            self.port = port
        }

        /// The HTTP Host header: the address as the URL gives it.
        var hostHeader: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
    }
}

import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SlateCore
import Synchronization

/// One websocket connection to an obs-websocket server, on swift-nio's own
/// client upgrader: `ws://` only, as obs-websocket 5 serves no TLS.
///
/// The server's messages are read as they are asked for, so swift-nio stops
/// reading from a server that sends faster than they are handled. A message
/// is at most `maxMessageSize` bytes in at most 256 fragments; text must be
/// UTF-8; reserved bits and opcodes are refused; pings are answered, no
/// faster than the server reads the answers; the server's close is answered
/// and ends the connection, and its code and reason are what `connect`
/// returns.
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

    /// The server refused the connection, or broke the protocol: why, and the
    /// code the client closes with.
    struct Refusal: Error, CustomStringConvertible {
        var description: String
        var code = WebSocketErrorCode.protocolError
    }

    /// The most fragments one message may come in (obs-websocket sends none).
    static let maxFragments = 256

    /// Sends text messages.
    struct Writer: Sendable {
        fileprivate let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>

        func send(_ text: String) async throws {
            try await outbound.write(masked(.text, ByteBuffer(string: text)))
        }
    }

    /// The server's messages, read one at a time by one task.
    final class Inbound {
        private var frames: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator
        private let channel: any Channel
        /// Pongs go out through the writer, which waits while the server does not read them.
        private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
        private let maxMessageSize: Int
        /// The server's close frame, once it came.
        private(set) var closing: Closing?
        private var closeSent = false

        fileprivate init(
            _ frames: NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, channel: any Channel,
            outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, maxMessageSize: Int
        ) {
            self.frames = frames
            self.channel = channel
            self.outbound = outbound
            self.maxMessageSize = maxMessageSize
        }

        /// The next message, or nil once the server closed or the connection ended.
        func next() async throws -> Message? {
            while closing == nil {
                let frame: WebSocketFrame?
                do {
                    frame = try await frames.next()
                } catch {
                    throw refusal(for: error)
                }
                guard let frame else { return nil }
                guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
                    throw Refusal(description: "it sent a frame with reserved bits set, which no extension agreed on")
                }
                switch frame.opcode {
                case .text:
                    guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                        throw Refusal(description: "it sent text that is not UTF-8", code: .dataInconsistentWithMessage)
                    }
                    return .text(text)
                case .binary: return .binary
                case .ping: try await outbound.write(masked(.pong, frame.unmaskedData))
                case .pong: continue
                case .connectionClose:
                    var data = frame.unmaskedData
                    let code = data.readWebSocketErrorCode()
                    closing = Closing(
                        code: code.map { Int(UInt16(webSocketErrorCode: $0)) },
                        reason: data.readString(length: data.readableBytes))
                    close(code ?? .normalClosure)
                default:
                    throw Refusal(
                        description: "it sent a frame of an unknown kind (opcode \(UInt8(webSocketOpcode: frame.opcode)))")
                }
            }
            return nil
        }

        /// Sends a close frame, once; it goes out even from a cancelled task.
        fileprivate func close(_ code: WebSocketErrorCode) {
            guard !closeSent else { return }
            closeSent = true
            var data = ByteBuffer()
            data.write(webSocketErrorCode: code)
            channel.writeAndFlush(masked(.connectionClose, data), promise: nil)
        }

        /// What a broken frame or message means, in a few words.
        private func refusal(for error: any Error) -> any Error {
            let size = "\(maxMessageSize / 1_048_576) MiB"
            switch error {
            case NIOWebSocketError.invalidFrameLength:
                // swift-nio's protocol error handler has closed with 1009 already.
                closeSent = true
                return Refusal(description: "it sent a frame over \(size)", code: .messageTooLarge)
            case let error as NIOWebSocketError:
                closeSent = true
                return Refusal(description: "it sent a malformed control frame (\(error))")
            case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
                return Refusal(description: "it sent a message over \(size)", code: .messageTooLarge)
            case NIOWebSocketFrameAggregator.Error.tooManyFragments:
                return Refusal(description: "it sent a message in more than \(OBSSocket.maxFragments) fragments")
            case NIOWebSocketFrameAggregator.Error.nonFinalFragmentSizeIsTooSmall:
                return Refusal(description: "it sent an empty fragment")
            case is NIOWebSocketFrameAggregator.Error:
                return Refusal(description: "it sent fragments out of order")
            default: return error
            }
        }
    }

    private enum Upgrade: Sendable {
        case websocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case refused
    }

    /// Connects to `url` (`ws://HOST:PORT[/PATH]`), runs `body` with the
    /// server's messages and a writer, closes, and returns the server's close
    /// frame when it sent one. When `body` ends before the server closed, the
    /// client closes (1000, or the code of the protocol error `body` threw)
    /// and waits up to `closeTimeout` for the server's answer. Cancelling the
    /// task closes the connection at any point, the upgrade included.
    static func connect(
        url: String, maxMessageSize: Int, closeTimeout: Duration,
        _ body: (Inbound, Writer) async throws -> Void
    ) async throws -> Closing? {
        let target: OBSAddress
        do {
            target = try OBSAddress(url)
        } catch {
            throw Refusal(description: error.description)
        }
        let opened = Mutex<(any Channel)?>(nil)
        let upgrade = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: target.host, port: target.port) { channel in
                opened.withLock { $0 = channel }
                return channel.eventLoop.makeCompletedFuture {
                    try upgrading(channel, to: target, maxMessageSize: maxMessageSize)
                }
            }
        let upgraded = try await withTaskCancellationHandler {
            try await upgrade.get()
        } onCancel: {
            opened.withLock { $0 }?.close(promise: nil)
        }
        guard case .websocket(let websocket) = upgraded else {
            throw Refusal(description: "it answered without upgrading to a websocket")
        }
        return try await websocket.executeThenClose { frames, outbound in
            let channel = websocket.channel
            let inbound = Inbound(
                frames.makeAsyncIterator(), channel: channel, outbound: outbound, maxMessageSize: maxMessageSize)
            do {
                try await body(inbound, Writer(outbound: outbound))
            } catch {
                inbound.close((error as? Refusal)?.code ?? .goingAway)
                throw error
            }
            if let closing = inbound.closing { return closing }
            // The client is done, or the connection ended: close, and give the server its time to answer.
            inbound.close(.normalClosure)
            let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(closeTimeout)) { channel.close(promise: nil) }
            defer { deadline.cancel() }
            while (try? await inbound.next()) != nil {}
            return inbound.closing
        }
    }

    /// Sets up `channel` to ask for the upgrade and, once the server agrees,
    /// to read whole messages.
    private static func upgrading(_ channel: any Channel, to target: OBSAddress, maxMessageSize: Int) throws
        -> EventLoopFuture<Upgrade>
    {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: maxMessageSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: maxFragments,
                        maxAccumulatedFrameSize: maxMessageSize))
                return .websocket(try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel))
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

    /// A frame as a client sends it: masked (RFC 6455, 5.3).
    private static func masked(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }
}

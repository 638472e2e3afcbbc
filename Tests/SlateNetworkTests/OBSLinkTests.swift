import Crypto
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket
import SlateNetwork
import Synchronization
import Testing

/// OBSLink against a fake obs-websocket server on a loopback port.
@Suite(.serialized) struct OBSLinkTests {
    /// Speaks obs-websocket 5 as its protocol document tells: a Hello (with the
    /// documented challenge and salt when it has a password), the Identify
    /// checked (4009 AuthenticationFailed when its authentication is wrong),
    /// Identified, then a RequestResponse for each Request. It reads and writes
    /// JSON with JSONSerialization, apart from Slate's own types.
    final class FakeOBS: Sendable {
        static let challenge = "+IxH4CnCiqpX1rM9scsNynZzbOe4KhDeYcTNS3PDaeY="
        static let salt = "lM1GncleQOaCu9lT1yeUZhFYnqhsLLP1G5lAGo3ixaI="
        /// The authentication for `supersecretpassword` with that challenge and salt,
        /// computed with Python's hashlib (see OBSMessageTests).
        static let authentication = "1Ct943GAT+6YQUUX47Ia/ncufilbe6+oD6lY+5kaCu4="

        /// How the fake answers.
        enum Manner: Sendable {
            /// As OBS does.
            case plain
            /// Sends a frame that is not JSON and a binary frame before each response.
            case garbled
            /// Sends Identified, then never answers a request.
            case silent
            /// Closes with 4011 SessionInvalidated (OBS's Kick button) at the first request.
            case kicking
            /// Sends each response in three fragments.
            case fragmented
        }

        /// Each Identify and Request received, as the text of its frame.
        final class Received: Sendable {
            let identifies = Mutex<[String]>([])
            let requests = Mutex<[String]>([])
        }

        let port: Int
        let received = Received()
        private let server: Task<Void, any Error>

        /// `ping`: how often the server pings; it closes the connection when a ping goes unanswered that long.
        init(passwordRequired: Bool = true, manner: Manner = .plain, port: Int = 0, ping: Duration = .seconds(30))
            async throws
        {
            let router = Router(context: BasicWebSocketRequestContext.self)
            router.ws("/") { [received] inbound, outbound, _ in
                try await Self.converse(inbound, outbound, passwordRequired: passwordRequired, manner: manner, received: received)
            }
            var logger = Logger(label: "fake-obs")
            logger.logLevel = .critical
            let (bound, announce) = AsyncStream.makeStream(of: Int.self)
            let app = Application(
                router: Router(),
                server: .http1WebSocketUpgrade(
                    webSocketRouter: router, configuration: .init(ws: .init(autoPing: .enabled(timePeriod: ping)))),
                configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { announce.yield($0.localAddress?.port ?? 0) }, logger: logger)
            server = Task { try await app.runService(gracefulShutdownSignals: []) }
            var ports = bound.makeAsyncIterator()
            self.port = try #require(await ports.next())
        }

        var url: String { "ws://127.0.0.1:\(port)" }
        var receivedIdentifies: [String] { received.identifies.withLock { $0 } }
        var receivedRequests: [[String: Any]] {
            received.requests.withLock { $0 }.compactMap { Self.object($0) }
        }

        func stop() async {
            server.cancel()
            _ = await server.result
        }

        static func object(_ text: String) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }

        static func text(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        static func converse(
            _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, passwordRequired: Bool,
            manner: Manner, received: Received
        ) async throws {
            var hello: [String: Any] = ["obsWebSocketVersion": "5.1.0", "rpcVersion": 1]
            if passwordRequired { hello["authentication"] = ["challenge": challenge, "salt": salt] }
            try await outbound.write(.text(text(["op": 0, "d": hello])))
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            guard case .text(let identifyText)? = try await messages.next(), let identify = object(identifyText),
                identify["op"] as? Int == 1, let data = identify["d"] as? [String: Any], data["rpcVersion"] as? Int == 1
            else {
                try await outbound.close(.unknown(4007), reason: "NotIdentified")
                return
            }
            received.identifies.withLock { $0.append(identifyText) }
            if passwordRequired, data["authentication"] as? String != authentication {
                try await outbound.close(.unknown(4009), reason: "Authentication failed.")
                return
            }
            try await outbound.write(.text(text(["op": 2, "d": ["negotiatedRpcVersion": 1]])))
            while let message = try await messages.next() {
                guard case .text(let requestText) = message, let request = object(requestText), request["op"] as? Int == 6,
                    let data = request["d"] as? [String: Any], let type = data["requestType"] as? String,
                    let id = data["requestId"] as? String
                else {
                    try await outbound.close(.unknown(4002), reason: "MessageDecodeError")
                    return
                }
                received.requests.withLock { $0.append(requestText) }
                switch manner {
                case .silent: continue
                case .kicking:
                    try await outbound.close(.unknown(4011), reason: "You have been kicked.")
                    return
                case .garbled:
                    try await outbound.write(.text("{\"op\": 7, \"d\": "))
                    try await outbound.write(.binary(ByteBuffer(bytes: [0x82, 0xa2])))
                case .plain, .fragmented: break
                }
                let known = ["StartRecord", "StopRecord", "CreateRecordChapter"].contains(type)
                var status: [String: Any] = ["result": known, "code": known ? 100 : 204]
                if !known { status["comment"] = "Your request type is not valid." }
                var response: [String: Any] = ["requestType": type, "requestId": id, "requestStatus": status]
                if type == "StopRecord" { response["responseData"] = ["outputPath": "/tmp/take.mkv"] }
                let answer = try text(["op": 7, "d": response])
                guard manner == .fragmented else {
                    try await outbound.write(.text(answer))
                    continue
                }
                let bytes = Array(answer.utf8), third = bytes.count / 3
                let parts = [bytes[..<third], bytes[third..<(2 * third)], bytes[(2 * third)...]]
                for (index, part) in parts.enumerated() {
                    try await outbound.write(
                        .custom(
                            WebSocketFrame(
                                fin: index == 2, opcode: index == 0 ? .text : .continuation, data: ByteBuffer(bytes: part))))
                }
            }
        }
    }

    /// What a link reported, in order.
    final class Heard: Sendable {
        let statuses = Mutex<[OBSLink.Status]>([])
        let results = Mutex<[OBSResult]>([])

        /// Waits until `predicate` holds, or `seconds` pass.
        @discardableResult
        func wait(seconds: Double = 20, for predicate: () -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if predicate() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return predicate()
        }

        var lastStatus: OBSLink.Status? { statuses.withLock { $0.last } }
    }

    func link(_ url: String, password: String?, requestTimeout: Duration = .seconds(5)) -> (OBSLink, Heard) {
        let heard = Heard()
        var logger = Logger(label: "slate.obs")
        logger.logLevel = .critical
        let link = OBSLink(
            url: url, password: password, requestTimeout: requestTimeout, logger: logger,
            onStatus: { status in heard.statuses.withLock { $0.append(status) } },
            onResult: { result in heard.results.withLock { $0.append(result) } })
        return (link, heard)
    }

    @Test func theRightPasswordIdentifiesAndStartRecordIsAnswered() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let response = try await link.send("StartRecord")
        #expect(response == OBSResponse(requestType: "StartRecord", succeeded: true, code: 100))
        let identify = try #require(obs.receivedIdentifies.first.flatMap(FakeOBS.object))
        #expect((identify["d"] as? [String: Any])?["authentication"] as? String == FakeOBS.authentication)
        #expect(obs.receivedRequests.map { ($0["d"] as? [String: Any])?["requestType"] as? String } == ["StartRecord"])
        let stopped = try await link.send("StopRecord")
        #expect(stopped.data?["outputPath"] == .string("/tmp/take.mkv"))
        link.stop()
        await obs.stop()
    }

    @Test func aWrongPasswordIsAnAuthenticationFailureNamingTheTarget() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: "not the password")
        #expect(await heard.wait { heard.lastStatus == .disconnected(.authenticationFailed(url: obs.url)) })
        #expect(!obs.receivedIdentifies.isEmpty)
        #expect(!heard.statuses.withLock { $0.contains(.connected) })
        do {
            _ = try await link.send("StartRecord")
            Issue.record("StartRecord was answered")
        } catch {
            #expect(error == .notConnected(url: obs.url, because: .authenticationFailed(url: obs.url)))
            #expect(error.description.contains(obs.url))
            #expect(error.description.contains("refused the password"))
            #expect(error.description.contains("4009"))
        }
        #expect(obs.receivedRequests.isEmpty)
        link.stop()
        await obs.stop()
    }

    @Test func aPasswordAskedForAndNotGivenIsSaid() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: nil)
        #expect(await heard.wait { heard.lastStatus == .disconnected(.passwordRequired(url: obs.url)) })
        #expect("\(OBSError.passwordRequired(url: obs.url))" == "OBS at \(obs.url) asks for a password and none was given")
        link.stop()
        await obs.stop()
    }

    @Test func noPasswordIsSentToAnOBSThatAsksNone() async throws {
        let obs = try await FakeOBS(passwordRequired: false)
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let identify = try #require(obs.receivedIdentifies.first.flatMap(FakeOBS.object))
        #expect((identify["d"] as? [String: Any])?["authentication"] == nil)
        #expect(try await link.send("StartRecord").succeeded)
        link.stop()
        await obs.stop()
    }

    @Test func withNoServerARequestFailsAtOnceAsNotConnected() async throws {
        let url = "ws://127.0.0.1:\(try MQTTLinkTests.Broker.freePort())"
        let (link, heard) = link(url, password: "supersecretpassword")
        let started = ContinuousClock.now
        do {
            _ = try await link.send("StartRecord")
            Issue.record("StartRecord was answered")
        } catch {
            guard case .notConnected(let target, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(target == url)
            #expect(error.description.hasPrefix("OBS at \(url) is not connected"))
        }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(await heard.wait { if case .disconnected(.unreachable(url, _)) = heard.lastStatus { true } else { false } })
        heard.results.withLock { $0 = [] }
        let serial = link.enqueue("StartRecord")
        #expect(await heard.wait { !heard.results.withLock { $0.isEmpty } })
        let result = try #require(heard.results.withLock { $0.first })
        #expect(result.serial == serial)
        #expect(result.failure == "OBS at \(url) is not connected: it cannot be reached: connection refused")
        link.stop()
    }

    @Test func requestDataReachesOBS() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let serial = link.enqueue("CreateRecordChapter", data: .object(["chapterName": .string("Take 3")]))
        #expect(await heard.wait { heard.results.withLock { $0.count } == 1 })
        let result = try #require(heard.results.withLock { $0.first })
        #expect(result.serial == serial)
        #expect(result.failure == nil)
        let request = try #require(obs.receivedRequests.first?["d"] as? [String: Any])
        #expect(request["requestType"] as? String == "CreateRecordChapter")
        #expect((request["requestData"] as? [String: Any])?["chapterName"] as? String == "Take 3")
        link.stop()
        await obs.stop()
    }

    @Test func enqueuedRequestsReachOBSInOrderAndARefusalIsAFailure() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let types = ["StartRecord", "CreateRecordChapter", "NoSuchRequest", "StopRecord"]
        let serials = types.map { link.enqueue($0) }
        #expect(await heard.wait { heard.results.withLock { $0.count } == types.count })
        let results = heard.results.withLock { $0 }
        #expect(results.map(\.serial) == serials)
        #expect(results.map(\.requestType) == types)
        #expect(obs.receivedRequests.map { ($0["d"] as? [String: Any])?["requestType"] as? String } == types)
        #expect(results.map { $0.failure == nil } == [true, true, false, true])
        #expect(results[2].failure == "OBS at \(obs.url) refused NoSuchRequest (code 204): Your request type is not valid.")
        link.stop()
        await obs.stop()
    }

    @Test func garbageFromOBSIsIgnoredAndTheAnswerStillArrives() async throws {
        let obs = try await FakeOBS(manner: .garbled)
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        #expect(try await link.send("StartRecord").succeeded)
        #expect(link.status == .connected)
        link.stop()
        await obs.stop()
    }

    @Test func aRequestOBSNeverAnswersTimesOut() async throws {
        let obs = try await FakeOBS(manner: .silent)
        let (link, heard) = link(obs.url, password: "supersecretpassword", requestTimeout: .milliseconds(300))
        #expect(await heard.wait { heard.lastStatus == .connected })
        await #expect(throws: OBSError.timedOut(url: obs.url, requestType: "StartRecord", after: .milliseconds(300))) {
            try await link.send("StartRecord")
        }
        link.stop()
        await obs.stop()
    }

    @Test func aResponseInFragmentsIsJoined() async throws {
        let obs = try await FakeOBS(manner: .fragmented)
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let response = try await link.send("StopRecord")
        #expect(response.succeeded && response.data == .object(["outputPath": .string("/tmp/take.mkv")]))
        link.stop()
        await obs.stop()
    }

    @Test func obsPingsAreAnsweredAndTheLinkStaysUp() async throws {
        // The server closes a connection whose ping is not answered within half a second.
        let obs = try await FakeOBS(ping: .milliseconds(500))
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        try await Task.sleep(for: .milliseconds(2500))
        #expect(try await link.send("StartRecord").succeeded)
        #expect(heard.statuses.withLock { $0 } == [.connected])
        link.stop()
        await obs.stop()
    }

    @Test func aServerThatDoesNotUpgradeIsUnreachableAndSaysWhy() async throws {
        let router = Router()
        router.get("/") { _, _ in "not obs-websocket" }
        var logger = Logger(label: "plain-http")
        logger.logLevel = .critical
        let (bound, announce) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        var ports = bound.makeAsyncIterator()
        let url = "ws://127.0.0.1:\(try #require(await ports.next()))"
        let (link, heard) = link(url, password: nil)
        let refused = OBSError.unreachable(url: url, reason: "it answered without upgrading to a websocket")
        #expect(await heard.wait { heard.lastStatus == .disconnected(refused) })
        link.stop()
        server.cancel()
        _ = await server.result
    }

    /// One websocket frame from a server (unmasked), its bytes written by hand.
    static func frame(_ payload: [UInt8], opcode: UInt8 = 0x1, fin: Bool = true) -> ByteBuffer {
        var buffer = ByteBuffer(bytes: [(fin ? 0x80 : 0) | opcode])
        switch payload.count {
        case ..<126: buffer.writeInteger(UInt8(payload.count))
        case ..<65536:
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(payload.count))
        default:
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(payload.count))
        }
        buffer.writeBytes(payload)
        return buffer
    }

    static let identified = frame(Array(#"{"op":2,"d":{"negotiatedRpcVersion":1}}"#.utf8))

    /// A server written by hand: when `upgrades`, it answers the upgrade as
    /// OBS does, its Hello in the same write as the 101 response, and writes
    /// `afterIdentify` once the client's first frame (its Identify) comes; else
    /// it accepts the connection and says nothing.
    static func handWrittenOBS(upgrades: Bool = true, afterIdentify: ByteBuffer = identified) async throws -> (
        url: String, server: Task<Void, any Error>
    ) {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let port = try #require(listener.channel.localAddress?.port)
        let server = Task {
            try await listener.executeThenClose { connections in
                for try await connection in connections {
                    try? await connection.executeThenClose { input, output in
                        // Reads until the client closes; a chunk after the answers is let be.
                        var request = "", upgraded = false, identifyHeard = false
                        for try await chunk in input where upgrades && !identifyHeard {
                            if upgraded {
                                identifyHeard = true
                                try await output.write(afterIdentify)
                                continue
                            }
                            request += String(buffer: chunk)
                            guard request.contains("\r\n\r\n") else { continue }
                            let key =
                                request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
                                .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
                            let accept = Data(
                                Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
                            ).base64EncodedString()
                            var reply = ByteBuffer(
                                string: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                    + "Sec-WebSocket-Accept: \(accept)\r\n\r\n")
                            var hello = frame(Array(#"{"op":0,"d":{"obsWebSocketVersion":"5.1.0","rpcVersion":1}}"#.utf8))
                            reply.writeBuffer(&hello)
                            try await output.write(reply)
                            upgraded = true
                        }
                    }
                }
            }
        }
        return ("ws://127.0.0.1:\(port)", server)
    }

    func link(_ url: String, handshakeTimeout: Duration) -> (OBSLink, Heard) {
        let heard = Heard()
        var logger = Logger(label: "slate.obs")
        logger.logLevel = .critical
        let link = OBSLink(
            url: url, handshakeTimeout: handshakeTimeout, logger: logger,
            onStatus: { status in heard.statuses.withLock { $0.append(status) } })
        return (link, heard)
    }

    @Test func aHelloSentWithTheUpgradesResponseIsHeard() async throws {
        let (url, server) = try await Self.handWrittenOBS()
        let (link, heard) = link(url, handshakeTimeout: .seconds(2))
        #expect(await heard.wait(seconds: 5) { heard.lastStatus == .connected })
        #expect(heard.statuses.withLock { $0 } == [.connected])
        link.stop()
        server.cancel()
    }

    @Test func aServerThatNeverAnswersTheUpgradeIsGivenUpAndTheLinkStops() async throws {
        let (url, server) = try await Self.handWrittenOBS(upgrades: false)
        let (link, heard) = link(url, handshakeTimeout: .seconds(1))
        let silent = OBSError.unreachable(url: url, reason: "no obs-websocket handshake within 1.0 seconds")
        #expect(await heard.wait(seconds: 5) { heard.lastStatus == .disconnected(silent) })
        link.stop()
        #expect(await heard.wait(seconds: 5) { heard.lastStatus == .disconnected(.stopped(url: url)) })
        server.cancel()
    }

    /// Frames a hostile server sends once identified, and what the link says of them.
    static let hostileFrames: [(String, @Sendable () -> ByteBuffer, String)] = [
        ("text that is not UTF-8", { frame([0xC3, 0x28]) }, "it sent text that is not UTF-8"),
        (
            "257 fragments",
            {
                var frames = frame([0x61], opcode: 0x1, fin: false)
                for _ in 0..<256 {
                    var next = frame([0x61], opcode: 0x0, fin: false)
                    frames.writeBuffer(&next)
                }
                return frames
            }, "it sent a message in more than 256 fragments"
        ),
        (
            "two fragments of 9 MiB",
            {
                var frames = frame([UInt8](repeating: 0x61, count: 9 << 20), opcode: 0x1, fin: false)
                var last = frame([UInt8](repeating: 0x61, count: 9 << 20), opcode: 0x0, fin: true)
                frames.writeBuffer(&last)
                return frames
            }, "it sent a message over 16 MiB"
        ),
        ("a reserved opcode", { frame([0x61], opcode: 0x3) }, "it sent a frame of an unknown kind (opcode 3)"),
        (
            "a reserved bit", { ByteBuffer(bytes: [0xC1, 0x01, 0x61]) },
            "it sent a frame with reserved bits set, which no extension agreed on"
        ),
    ]

    @Test(arguments: 0..<hostileFrames.count)
    func hostileFramesEndTheConnectionSayingWhy(_ index: Int) async throws {
        let (name, bytes, reason) = Self.hostileFrames[index]
        var frames = Self.identified
        var hostile = bytes()
        frames.writeBuffer(&hostile)
        let (url, server) = try await Self.handWrittenOBS(afterIdentify: frames)
        let (link, heard) = link(url, handshakeTimeout: .seconds(2))
        let closed = OBSError.closed(url: url, code: nil, reason: reason)
        #expect(await heard.wait(seconds: 5) { heard.statuses.withLock { $0.contains(.disconnected(closed)) } }, "\(name)")
        #expect(heard.statuses.withLock { $0.first } == .connected, "\(name)")
        link.stop()
        server.cancel()
    }

    @Test func aSessionInvalidatedByOBSIsNotReconnected() async throws {
        let obs = try await FakeOBS(manner: .kicking)
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        let kicked = OBSError.closed(url: obs.url, code: 4011, reason: "You have been kicked.")
        await #expect(throws: OBSError.connectionLost(url: obs.url, requestType: "StartRecord", because: kicked)) {
            try await link.send("StartRecord")
        }
        #expect(link.status == .disconnected(kicked))
        #expect(await heard.wait { heard.lastStatus == .disconnected(kicked) })
        #expect("\(kicked)" == "OBS at \(obs.url) closed the connection with 4011 SessionInvalidated: You have been kicked.")
        try await Task.sleep(for: .milliseconds(2500))
        #expect(obs.receivedIdentifies.count == 1)
        #expect(link.status == .disconnected(kicked))
        link.stop()
        await obs.stop()
    }

    @Test func whenOBSGoesAwayTheLinkSaysSoAndComesBackWithIt() async throws {
        let obs = try await FakeOBS()
        let (link, heard) = link(obs.url, password: "supersecretpassword")
        #expect(await heard.wait { heard.lastStatus == .connected })
        await obs.stop()
        #expect(await heard.wait { if case .disconnected = heard.lastStatus { true } else { false } })
        await #expect(throws: OBSError.self) { try await link.send("StartRecord") }
        let again = try await FakeOBS(port: obs.port)
        #expect(await heard.wait(seconds: 30) { heard.lastStatus == .connected })
        #expect(try await link.send("StartRecord").succeeded)
        link.stop()
        #expect(await heard.wait { heard.lastStatus == .disconnected(.stopped(url: obs.url)) })
        await again.stop()
    }

    /// A real OBS, started by `tests/obs/obs_session.py`, which prints these two variables.
    static let realOBS = ProcessInfo.processInfo.environment["SLATE_OBS_URL"]

    @Test(.enabled(if: realOBS != nil, "SLATE_OBS_URL and SLATE_OBS_PASSWORD_FILE name a running OBS"))
    func aRealOBSRecordsAFileBetweenStartRecordAndStopRecord() async throws {
        let url = try #require(Self.realOBS)
        let passwordFile = try #require(ProcessInfo.processInfo.environment["SLATE_OBS_PASSWORD_FILE"])
        let password = try String(contentsOfFile: passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let (link, heard) = link(url, password: password)
        #expect(await heard.wait(seconds: 30) { heard.lastStatus == .connected })
        #expect(try await link.send("StartRecord").succeeded)
        try await Task.sleep(for: .seconds(2))
        let chapter = try await link.send("CreateRecordChapter", data: .object(["chapterName": .string("Slate")]))
        #expect(chapter.succeeded || chapter.code == 204, "\(chapter)")
        let stopped = try await link.send("StopRecord")
        #expect(stopped.succeeded)
        guard case .string(let path)? = stopped.data?["outputPath"] else {
            Issue.record("StopRecord gave no outputPath: \(stopped)")
            return
        }
        #expect(
            await heard.wait(seconds: 30) {
                ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) > 0
            }, "\(path)")
        link.stop()
    }
}

import Foundation
import FoundationNetworking
import Glibc
import Logging
import SlateCore
import SlateSystem
import SlateWeb
import Testing

/// The page server on a real socket: who may read and act, what it serves and what it refuses.
/// Its start and stop block their thread, as they do the daemon's, so they run on threads of their own here.
@Suite(.serialized) struct RigServerTests {
    static let token = String(repeating: "ab", count: 32)

    /// `body` on a thread of its own, off Swift's cooperative pool.
    func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// A server on a free port of `host`, answering `hosts` too, with the board it serves.
    func serving(
        host: String = "127.0.0.1", hosts: [String] = [], preview: PreviewFeed = PreviewFeed(), budgets: PageBudgets? = nil,
        pairing: PairingStore? = nil
    ) async throws -> (RigServer, StatusBoard) {
        let board = StatusBoard(origin: MonotonicClock.now()) {}
        let server = try await onThread {
            try RigServer(
                listen: HTTPListen(host: host, port: 0), hosts: hosts, board: board, preview: preview, token: Self.token,
                pairing: pairing, budgets: budgets, logger: Logger(label: "test"))
        }
        return (server, board)
    }

    func stop(_ server: RigServer, _ board: StatusBoard, preview: PreviewFeed? = nil) async throws {
        board.close()
        preview?.close()
        try await onThread { server.stop() }
    }

    /// What a raw connection reads of `path` until `enough` says so (or 10 s
    /// pass); then it closes. Blocking: call it through `onThread`.
    static func read(port: Int, _ path: String, headers: String = "", until enough: (String) -> Bool) throws -> String {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(connection >= 0)
        defer { close(connection) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n".utf8)
        _ = request.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !enough(String(decoding: received, as: UTF8.self)) {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Status code, body and headers of one request.
    func fetch(
        _ server: RigServer, _ path: String, method: String = "GET", body: String? = nil, token: String? = nil,
        cookie: String? = nil, headers: [String: String] = [:]
    ) async throws -> (Int, String, [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.address.port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        let (data, response) = try await URLSession(configuration: configuration).data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http.allHeaderFields)
    }

    @Test func readsAreOpenOnLoopbackAndEveryPostNeedsTheToken() async throws {
        let (server, board) = try await serving()
        #expect(try await fetch(server, "/status.json").0 == 503)
        board.publish(StatusBoardTests.status(takes: 2), thumbnails: [:])
        let (code, body, _) = try await fetch(server, "/status.json")
        #expect(code == 200 && body.contains(#""recording":false"#) && body.contains(#""number":2"#))
        let page = try await fetch(server, "/")
        #expect(page.0 == 200 && page.1.contains("<title>Slate</title>"))
        let refused = try await fetch(server, "/actions", method: "POST", body: #"{"action":"take.toggle"}"#)
        #expect(refused.0 == 401 && refused.1.contains("Authorization: Bearer"))
        let wrong = try await fetch(server, "/actions", method: "POST", body: #"{"action":"x"}"#, token: "ab")
        #expect(wrong.0 == 401 && wrong.1.contains("the token is wrong"))
        let malformed = try await fetch(server, "/actions", method: "POST", body: #"{"act"#, token: Self.token)
        #expect(malformed.0 == 400 && malformed.1.contains("must be JSON"))
        let missing = try await fetch(server, "/actions", method: "POST", body: #"{"verb":"x"}"#, token: Self.token)
        #expect(missing.0 == 400 && missing.1.contains("'action' is missing"))
        let oversized = try await fetch(
            server, "/actions", method: "POST", body: #"{"action":""# + String(repeating: "a", count: 10_000) + #""}"#,
            token: Self.token)
        #expect(oversized.0 == 413)
        let longTarget = try await fetch(server, "/status.json?" + String(repeating: "a", count: 5000))
        #expect(longTarget.0 == 414 && longTarget.1.contains("over 4096 bytes"))
        let port = server.address.port
        let bigHeaders = try await onThread {
            try Self.read(port: port, "/status.json", headers: "X-Big: \(String(repeating: "a", count: 20_000))\r\n") {
                $0.contains("}\n")
            }
        }
        #expect(bigHeaders.hasPrefix("HTTP/1.1 431 ") && bigHeaders.contains("over 16384 bytes"), "\(bigHeaders.prefix(200))")
        try await stop(server, board)
    }

    @Test func anActionIsAnsweredWithWhatTheDaemonSaid() async throws {
        let (server, board) = try await serving()
        let daemon = Task {
            while !Task.isCancelled {
                for request in board.takeRequests() {
                    request.answer(
                        request.action == "take.toggle" ? .ran([StatusBoardTests.line(2)]) : .refused("unknown action"))
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        defer { daemon.cancel() }
        let ran = try await fetch(server, "/actions", method: "POST", body: #"{"action":"take.toggle"}"#, token: Self.token)
        #expect(ran.0 == 200)
        #expect(ran.1 == #"{"action":"take.toggle","lines":[{"sound":"shutter","t":2,"type":"sound"}]}"# + "\n")
        let refused = try await fetch(server, "/actions", method: "POST", body: #"{"action":"fly"}"#, token: Self.token)
        #expect(refused.0 == 400 && refused.1.contains("unknown action"))
        try await stop(server, board)
    }

    @Test func onlyListedTakesThumbnailsAreServedWhateverThePath() async throws {
        let (server, board) = try await serving()
        let folder = NSTemporaryDirectory() + "slate-thumb-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: folder + "/t.jpg"))
        board.publish(StatusBoardTests.status(takes: 1), thumbnails: [1: folder + "/t.jpg"])
        let (code, body, headers) = try await fetch(server, "/takes/1/thumbnail.jpg")
        #expect(code == 200 && body.count == 4 && headers["Content-Type"] as? String == "image/jpeg")
        for path in [
            "/takes/2/thumbnail.jpg", "/takes/0/thumbnail.jpg", "/takes/-1/thumbnail.jpg", "/takes/x/thumbnail.jpg",
            "/takes/..%2f..%2fetc%2fpasswd/thumbnail.jpg", "/takes/1/..%2f..%2f..%2fetc%2fpasswd", "/..%2f..%2fetc%2fpasswd",
            "/%2e%2e/%2e%2e/etc/passwd", "/page.css/..%2f..%2fPackage.swift", "/takes/99999999999999999999/thumbnail.jpg",
        ] {
            let (code, body, _) = try await fetch(server, path)
            #expect(code == 404, "\(path)")
            #expect(!body.contains("root:"), "\(path)")
        }
        try await stop(server, board)
    }

    @Test func offLoopbackEveryRequestNeedsTheTokenOrAPairedBrowser() async throws {
        let (server, board) = try await serving(host: "0.0.0.0")
        board.publish(StatusBoardTests.status(), thumbnails: [:])
        #expect(try await fetch(server, "/status.json").0 == 401)
        #expect(try await fetch(server, "/status.json", token: "nope").0 == 401)
        #expect(try await fetch(server, "/status.json?token=\(Self.token)").0 == 401)
        #expect(try await fetch(server, "/status.json", cookie: "slate-token=\(Self.token)").0 == 401)
        #expect(try await fetch(server, "/status.json", token: Self.token).0 == 200)
        // A browser that opens the page unpaired is sent to pair; the pairing page is open to it.
        let port = server.address.port
        let redirect = try await onThread { try Self.read(port: port, "/") { $0.contains("\r\n\r\n") } }
        #expect(redirect.hasPrefix("HTTP/1.1 303 ") && redirect.lowercased().contains("location: /pair\r\n"), "\(redirect)")
        let pairPage = try await fetch(server, "/pair")
        #expect(pairPage.0 == 200 && pairPage.1.contains("Pair this browser"))
        #expect(try await fetch(server, "/pair.js").0 == 200)
        #expect(try await fetch(server, "/page.js").0 == 401)
        try await stop(server, board)
    }

    @Test func theFramingPreviewIsMultipartJPEGWatchedWhileAClientReads() async throws {
        let preview = PreviewFeed()
        let (server, board) = try await serving(preview: preview)
        let feeder = Task {
            while !Task.isCancelled {
                if preview.isWatched { preview.publish([0xFF, 0xD8, 0x01, 0xFF, 0xD9]) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        defer { feeder.cancel() }
        #expect(!preview.isWatched)
        let port = server.address.port
        let text = try await onThread {
            try Self.read(port: port, "/preview.mjpg") { $0.components(separatedBy: "--slate-preview\r\n").count > 3 }
        }
        #expect(text.contains("Content-Type: multipart/x-mixed-replace; boundary=slate-preview\r\n"))
        #expect(text.contains("\r\n--slate-preview\r\nContent-Type: image/jpeg\r\nContent-Length: 5\r\n\r\n\u{FFFD}"))
        // The client is gone: the next picture finds it gone, and nobody watches.
        let deadline = MonotonicClock.now() + .seconds(5)
        while preview.isWatched && MonotonicClock.now() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!preview.isWatched)
        try await stop(server, board, preview: preview)
    }

    @Test func aTakenPortIsAnErrorNamingTheAddress() async throws {
        let (server, board) = try await serving()
        let other = StatusBoard(origin: MonotonicClock.now()) {}
        let address = server.address
        let failure = try await onThread { () -> String? in
            do {
                _ = try RigServer(
                    listen: address, board: other, preview: PreviewFeed(), token: Self.token, logger: Logger(label: "test"))
                return nil
            } catch {
                return "\(error)"
            }
        }
        #expect(
            failure
                == "cannot serve the page on 127.0.0.1:\(address.port): port \(address.port) is taken: another program (another slate run?) listens on it",
            "\(failure ?? "")")
        try await stop(server, board)
    }
}

import Foundation
import SlateCore
import SlateSystem
import Testing

@testable import SlateWeb

/// Pairing a browser on a real socket: the code's limits, the cookie it
/// gives, what that cookie may do, and a revoked browser refused.
extension RigServerTests {
    /// A pairing store in a folder of its own, removed after `body`.
    func withStore<T>(_ body: (PairingStore) async throws -> T) async throws -> T {
        let path = NSTemporaryDirectory() + "slate-pairing-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(try PairingStore(folder: path))
    }

    func pair(_ server: RigServer, _ code: String, name: String? = nil) async throws -> (Int, String, String?) {
        let body = name.map { #"{"code":"\#(code)","name":"\#($0)"}"# } ?? #"{"code":"\#(code)"}"#
        let (status, answer, headers) = try await fetch(
            server, "/pair", method: "POST", body: body, headers: ["Content-Type": "application/json"])
        return (status, answer, headers["Set-Cookie"] as? String)
    }

    static func now() -> Int64 { WallClock.microseconds() / 1_000_000 }

    @Test func aCodePairsOneBrowserWhoseCookieReadsAndActs() async throws {
        try await withStore { store in
            let (server, board) = try await serving(host: "0.0.0.0", pairing: store)
            board.publish(StatusBoardTests.status(), thumbnails: [:])
            #expect(try await pair(server, "123456").1.contains("no pairing code is open"))
            let code = try store.issueCode(now: Self.now())
            // A form another site posts is refused before the code is tried.
            let form = try await fetch(server, "/pair", method: "POST", body: "code=\(code.code)")
            #expect(form.0 == 415)
            let foreign = try await fetch(
                server, "/pair", method: "POST", body: #"{"code":"\#(code.code)"}"#,
                headers: ["Content-Type": "application/json", "Origin": "http://evil.example"])
            #expect(foreign.0 == 403 && store.openCode() == code)
            let (status, answer, setCookie) = try await pair(server, code.code, name: "Stage left\\u0007")
            #expect(status == 200 && answer.contains(#""name":"Stage left""#), "\(answer)")
            let cookieHeader = try #require(setCookie)
            #expect(cookieHeader.contains("HttpOnly") && cookieHeader.contains("SameSite=Strict"))
            #expect(cookieHeader.contains("Max-Age=31536000") && cookieHeader.hasPrefix("slate-pair="))
            let cookie = String(cookieHeader.prefix { $0 != ";" })
            // Spent: the code pairs no second browser, and its file is gone.
            #expect(try await pair(server, code.code).1.contains("no pairing code is open"))
            #expect(store.openCode() == nil)
            // The file keeps the secret's digest, not the secret, readable by its owner only.
            let browsers = try store.browsers().browsers
            let secret = String(cookie.split(separator: ".")[1])
            #expect(browsers.count == 1 && browsers[0].name == "Stage left" && browsers[0].digest != secret)
            let mode =
                try FileManager.default.attributesOfItem(
                    atPath: store.folder.file(PairingStore.browsersFile))[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try await fetch(server, "/status.json", cookie: cookie).0 == 200)
            #expect(try await fetch(server, "/", cookie: cookie).0 == 200)
            let me = try await fetch(server, "/pair/me", cookie: cookie)
            #expect(me.1.contains(#""acts":true"#) && me.1.contains(#""id":"\#(browsers[0].id)""#))
            #expect(try await fetch(server, "/status.json", cookie: cookie + "0").0 == 401)
            // Its actions pass the check (the daemon answers none here: 400 for a malformed body).
            let acted = try await fetch(server, "/actions", method: "POST", body: "{", cookie: cookie)
            #expect(acted.0 == 400)
            let elsewhere = try await fetch(
                server, "/actions", method: "POST", body: "{", cookie: cookie, headers: ["Origin": "http://evil.example"])
            #expect(elsewhere.0 == 403 && elsewhere.1.contains("another origin"))
            let crossSite = try await fetch(
                server, "/actions", method: "POST", body: "{", cookie: cookie, headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.0 == 403 && crossSite.1.contains("another site"))
            // A paired browser opens a code for another device.
            let offer = try await fetch(server, "/pair/code", method: "POST", cookie: cookie)
            #expect(offer.0 == 200 && offer.1.contains(#""minutes":5"#) && offer.1.contains(#""links":["http://"#))
            #expect(try await fetch(server, "/pair/code", method: "POST").0 == 401)
            // Revoked: refused from its next request.
            #expect(try store.revoke(String(browsers[0].id.prefix(3)))?.id == browsers[0].id)
            #expect(try await fetch(server, "/status.json", cookie: cookie).0 == 401)
            try await stop(server, board)
        }
    }

    @Test func aRevokedBrowsersFramingPreviewEnds() async throws {
        try await withStore { store in
            let preview = PreviewFeed()
            let (server, board) = try await serving(host: "0.0.0.0", preview: preview, pairing: store)
            let feeder = Task {
                while !Task.isCancelled {
                    if preview.isWatched { preview.publish([0xFF, 0xD8, 0x01, 0xFF, 0xD9]) }
                    try? await Task.sleep(for: .milliseconds(20))
                }
            }
            defer { feeder.cancel() }
            let code = try store.issueCode(now: Self.now())
            let cookie = String(try #require(try await pair(server, code.code).2).prefix { $0 != ";" })
            let id = try #require(try store.browsers().browsers.first?.id)
            let port = server.address.port
            let started = MonotonicClock.now()
            // Read until the page ends the stream (its last, empty chunk) or 10 s pass.
            let reading = Task {
                try await onThread {
                    try Self.read(port: port, "/preview.mjpg", headers: "Cookie: \(cookie)\r\n") { $0.hasSuffix("\r\n0\r\n\r\n") }
                }
            }
            try await Task.sleep(for: .milliseconds(500))
            #expect(try store.revoke(id) != nil)
            let text = try await reading.value
            #expect(text.hasPrefix("HTTP/1.1 200 ") && text.contains("--slate-preview"))
            #expect(MonotonicClock.now() - started < .seconds(5), "the stream went on after the revoke")
            try await stop(server, board, preview: preview)
        }
    }

    @Test func fiveWrongCodesVoidTheCodeAndMalformedOnesAreNotCounted() async throws {
        try await withStore { store in
            let (server, board) = try await serving(host: "0.0.0.0", pairing: store)
            let code = try store.issueCode(now: Self.now())
            let wrong = code.code == "000000" ? "000001" : "000000"
            #expect(try await pair(server, "12ab56").1.contains("is 6 digits"))
            #expect(try await pair(server, "1234567").0 == 403)
            for left in [4, 3, 2, 1] {
                let (status, answer, cookie) = try await pair(server, wrong)
                #expect(status == 403 && answer.contains("\(left) more wrong") && cookie == nil, "\(answer)")
            }
            #expect(try await pair(server, wrong).1.contains("the code is void"))
            #expect(try await pair(server, code.code).1.contains("no pairing code is open"))
            #expect(store.openCode() == nil)
            try await stop(server, board)
        }
    }

    @Test func anExpiredCodeIsRefusedAndAFullListSpendsNoCode() async throws {
        try await withStore { store in
            let (server, board) = try await serving(host: "0.0.0.0", pairing: store)
            let old = try store.issueCode(now: Self.now() - PairingCode.lifetime - 1)
            #expect(try await pair(server, old.code).1.contains("the code has expired"))
            for _ in 0..<PairedBrowsers.limit {
                let code = try store.issueCode(now: Self.now())
                #expect(try await pair(server, code.code).0 == 200)
            }
            let code = try store.issueCode(now: Self.now())
            let (status, answer, _) = try await pair(server, code.code)
            #expect(status == 403 && answer.contains("32 browsers are paired already"))
            #expect(store.openCode() == code)
            let body = try await fetch(
                server, "/pair", method: "POST", body: String(repeating: "a", count: 2000),
                headers: ["Content-Type": "application/json"])
            #expect(body.0 == 413)
            try await stop(server, board)
        }
    }

    @Test func onLoopbackReadsNeedNothingButActionsACredential() async throws {
        try await withStore { store in
            let (server, board) = try await serving(pairing: store)
            board.publish(StatusBoardTests.status(), thumbnails: [:])
            #expect(try await fetch(server, "/status.json").0 == 200)
            #expect(try await fetch(server, "/").0 == 200)
            #expect(try await fetch(server, "/pair/me").1.contains(#""acts":false"#))
            #expect(try await fetch(server, "/actions", method: "POST", body: "{").0 == 401)
            #expect(try await fetch(server, "/pair/me", token: Self.token).1.contains(#""acts":true"#))
            #expect(server.links == ["http://127.0.0.1:\(server.address.port)/"])
            try await stop(server, board)
        }
    }
}

import Foundation
import SlateCore
import SlateSystem
import SlateWeb
import Testing

/// DNS rebinding: the page answers only its own host names, and whether it
/// is on loopback is the bound address's to say, not the listen text's.
extension RigServerTests {
    /// The status code and body of a GET of /status.json sent with `host` (no Host field when nil).
    static func status(
        port: Int, address: String = "127.0.0.1", host: String?, version: String = "HTTP/1.1", extra: String = ""
    ) -> (Int?, String) {
        let client = RawConnection(port: port, address: address)
        client.send(
            "GET /status.json \(version)\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + extra + "Connection: close\r\n\r\n")
        client.read(for: .seconds(3))
        let body = client.text.range(of: "\r\n\r\n").map { String(client.text[$0.upperBound...]) } ?? ""
        return (client.status, body)
    }

    @Test func onlyThePagesOwnHostNamesAreAnswered() async throws {
        let (server, board) = try await serving(hosts: ["rig.example", "[fd00::99]"])
        board.publish(StatusBoardTests.status(), thumbnails: [:])
        let port = server.address.port
        let answers = try await onThread { () -> [(String, Int?, String)] in
            [
                "127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LocalHost.:\(port)", "rig.example:\(port)",
                "RIG.example", "[fd00::99]:\(port)", "[::1]:\(port)", "rebind.attacker.example:\(port)",
                "rig.example.attacker.example:\(port)", "127.0.0.1:\(port + 1)", "localhost:80", "127.0.0.1:\(port):1",
                "a b", "[::1", "user@127.0.0.1:\(port)",
            ].map { host in
                let (code, body) = Self.status(port: port, host: host)
                return (host, code, body)
            }
        }
        for (host, code, body) in answers {
            switch host {
            case "rebind.attacker.example:\(port)", "rig.example.attacker.example:\(port)":
                #expect(
                    code == 421 && body.contains("DNS rebinding") && body.contains("http.hosts"), "\(host): \(code ?? 0) \(body)")
                #expect(body.contains("open http://127.0.0.1:\(port)/"), "\(body)")
            case "127.0.0.1:\(port + 1)", "localhost:80":
                #expect(code == 421 && body.contains("the page listens on port \(port)"), "\(host): \(code ?? 0) \(body)")
            case "127.0.0.1:\(port):1", "a b", "[::1", "user@127.0.0.1:\(port)":
                #expect(code == 400 && body.contains("is not HOST[:PORT]"), "\(host): \(code ?? 0) \(body)")
            default:
                #expect(code == 200 && body.contains(#""recording":false"#), "\(host): \(code ?? 0) \(body)")
            }
            if code != 200 {
                #expect((try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])?["error"] != nil)
            }
        }
        try await stop(server, board)
    }

    @Test func anHTTP11RequestMustNameOneHost() async throws {
        let (server, board) = try await serving()
        board.publish(StatusBoardTests.status(), thumbnails: [:])
        let port = server.address.port
        let (missing, old, twice) = try await onThread {
            (
                Self.status(port: port, host: nil), Self.status(port: port, host: nil, version: "HTTP/1.0"),
                Self.status(port: port, host: "127.0.0.1", extra: "Host: rebind.attacker.example\r\n")
            )
        }
        #expect(missing.0 == 400 && missing.1.contains("send Host: 127.0.0.1:\(port)"), "\(missing)")
        #expect(old.0 == 200, "HTTP/1.0 names no host: \(old)")
        #expect(twice.0 == 400 && twice.1.contains("2 Host fields"), "\(twice)")
        try await stop(server, board)
    }

    @Test func loopbackIsTheBoundAddressNotTheListenText() async throws {
        for (host, loopback) in [("127.0.0.2", true), ("localhost", true), ("0.0.0.0", false)] {
            let (server, board) = try await serving(host: host)
            board.publish(StatusBoardTests.status(), thumbnails: [:])
            #expect(server.isLoopback == loopback, "\(host)")
            let resolved = host == "localhost" ? ["127.0.0.1", "::1"] : [host]
            #expect(resolved.contains(server.bound.host) && server.bound.port == server.address.port, "\(server.bound)")
            let (port, address) = (server.address.port, server.bound.host == "0.0.0.0" ? "127.0.0.1" : server.bound.host)
            let answer = try await onThread { Self.status(port: port, address: address, host: "localhost:\(port)") }
            #expect(answer.0 == (loopback ? 200 : 401), "\(host): \(answer)")
            try await stop(server, board)
        }
    }
}

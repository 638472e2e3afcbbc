import Testing

@testable import SlateNetwork

/// Where an OBS target's address points.
@Suite struct OBSSocketTests {
    @Test func aTargetIsItsHostPortAndPath() throws {
        let plain = try OBSSocket.Target("ws://127.0.0.1:4455")
        #expect(plain.host == "127.0.0.1" && plain.port == 4455 && plain.path == "/")
        #expect(plain.hostHeader == "127.0.0.1:4455")
        let named = try OBSSocket.Target("ws://studio.local:4455/obs?x=1")
        #expect(named.host == "studio.local" && named.port == 4455 && named.path == "/obs?x=1")
        let six = try OBSSocket.Target("ws://[::1]:4455")
        #expect(six.host == "::1" && six.port == 4455 && six.path == "/")
        #expect(six.hostHeader == "[::1]:4455")
    }

    @Test(arguments: [
        ("wss://127.0.0.1:4455", "it is not a ws:// address"), ("ws://127.0.0.1", "it names no port"),
        ("ws://127.0.0.1:70000", "it names no port"), ("ws://:4455", "it names no host"),
    ])
    func anAddressWithoutHostOrPortIsRefused(url: String, reason: String) {
        let refusal = #expect(throws: OBSSocket.Refusal.self) { try OBSSocket.Target(url) }
        #expect(refusal?.description == reason)
    }
}

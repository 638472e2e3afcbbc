import SlateCore
import Testing

/// Where an OBS target's address points.
@Suite struct OBSAddressTests {
    @Test func aTargetIsItsHostPortAndPath() throws {
        let plain = try OBSAddress("ws://127.0.0.1:4455")
        #expect(plain.host == "127.0.0.1" && plain.port == 4455 && plain.path == "/")
        #expect(plain.hostHeader == "127.0.0.1:4455")
        let named = try OBSAddress("ws://studio.local:4455/obs?x=1")
        #expect(named.host == "studio.local" && named.port == 4455 && named.path == "/obs?x=1")
        let six = try OBSAddress("ws://[::1]:4455")
        #expect(six.host == "::1" && six.port == 4455 && six.path == "/")
        #expect(six.hostHeader == "[::1]:4455")
        #expect(OBSSpec.targetProblem("ws://[::1]:4455/obs") == nil)
    }

    @Test(arguments: [
        ("wss://127.0.0.1:4455", "it is not a ws:// address"), ("ws://127.0.0.1", "it names no port"),
        ("ws://127.0.0.1:70000", "it names no port"), ("ws://:4455", "it names no host"),
        ("ws://[]:4455", "it names no host"),
    ])
    func anAddressWithoutHostOrPortIsRefused(url: String, reason: String) {
        let problem = #expect(throws: OBSAddress.Problem.self) { try OBSAddress(url) }
        #expect(problem?.description == reason)
        // A profile names the same problem in its own words.
        #expect(OBSSpec.targetProblem(url)?.hasSuffix("not '\(url)'") == true)
    }
}

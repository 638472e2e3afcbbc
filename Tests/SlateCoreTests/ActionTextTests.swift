import Testing

@testable import SlateCore

/// Actions asked by name over HTTP, checked against the profile.
@Suite struct ActionTextTests {
    let profile: Profile

    init() throws {
        profile = try ProfileLoader.load(
            """
            inputs:
              pedal:
                match: {name: "PCsensor FootSwitch"}
                bind: {KEY_B: primary}
            capture:
              primary: {click: take.toggle}
            macros:
              punch-in: [zoom.set 2, take.start]
              slate-it: {exec: [/usr/bin/true]}
            controls:
              list:
                - type: zoom
                - {type: picker, name: Filter, target: "recorder:filter"}
            """, file: "rig.yaml"
        ).get()
    }

    func steps(_ text: String) -> [Action]? { try? ActionText.steps(text, in: profile).get().map(\.action) }

    func refusal(_ text: String) -> String? {
        guard case .failure(let error) = ActionText.steps(text, in: profile) else { return nil }
        return error.description
    }

    @Test func anActionOfTheVocabulary() {
        #expect(steps("take.toggle") == [.takeToggle])
        #expect(steps("  zoom.set 2 ") == [.zoomSet(2)])
        #expect(steps("control.set Filter mono") == [.control(.set("Filter", "mono"))])
    }

    @Test func aTakeByItsNumberAndAnExportThroughAFilter() {
        #expect(steps("take.delete 3") == [.takeDelete(.number(3))])
        #expect(steps("takes.export") == [.takesExport(nil)])
        #expect(steps("takes.export sepia") == [.takesExport(.sepia)])
        #expect(refusal("takes.export vivid")?.contains("one of none, mono or sepia, not 'vivid'") == true)
        #expect(refusal("take.delete 0") != nil)
        #expect(refusal("take.delete") == "take.delete needs an argument")
    }

    @Test func aTakeByItsFileAsThePageNamesIt() {
        #expect(steps("take.delete take-20261121-103841-0003.mp4") == [.takeDelete(.file("take-20261121-103841-0003.mp4"))])
        for bad in [
            "../takes.json", "take-../../etc/passwd", "take-a/b.mp4", "take-\u{1B}[2J.mp4",
            "take-" + String(repeating: "a", count: 100),
        ] {
            #expect(
                refusal("take.delete \(bad)")
                    == "take.delete names a take by its number (1 to 100000) or its file (take-20261121-103841-0003.mp4), not '\(bad)'"
            )
        }
    }

    @Test func aMacroByItsName() throws {
        let expanded = try ActionText.steps("punch-in", in: profile).get()
        #expect(expanded.map(\.action) == [.zoomSet(2), .takeStart])
        #expect(expanded.allSatisfy { $0.macro == "punch-in" })
    }

    @Test func aProgramRunsOnlyThroughAMacroOfTheProfile() {
        #expect(refusal("exec [/bin/sh, -c, reboot]")?.contains("name a macro") == true)
        #expect(steps("slate-it") == [.exec(["/usr/bin/true"])])
    }

    @Test func whatIsNotAnActionIsRefusedWithWhy() {
        #expect(refusal("take.toggle now") == "take.toggle takes no argument")
        #expect(refusal("nonsense")?.contains("unknown action or macro 'nonsense'") == true)
        #expect(refusal("zoom.set 9")?.contains("within 1 and 6") == true)
        #expect(refusal("control.set Iris 2")?.contains("no control is named 'Iris'") == true)
        #expect(refusal("") != nil)
        #expect(refusal("take.toggle\ntake.toggle") != nil)
        #expect(refusal(String(repeating: "a", count: 5000))?.contains("at most") == true)
        #expect(refusal("[take.toggle, take.toggle]") != nil)
        #expect(refusal("{exec: [/bin/sh]}") != nil)
    }
}

/// `--http` and the profile's `http` section.
@Suite struct HTTPListenTests {
    func parse(_ text: String) -> HTTPListen? { try? HTTPListen.parse(text).get() }

    @Test func aPortAloneListensOnLoopback() throws {
        #expect(parse("8600") == HTTPListen(host: "127.0.0.1", port: 8600))
    }

    @Test func addressesOfEveryForm() {
        #expect(parse("0.0.0.0:8600") == HTTPListen(host: "0.0.0.0", port: 8600))
        #expect(parse("[::1]:80") == HTTPListen(host: "::1", port: 80))
        #expect(parse("localhost:0") == HTTPListen(host: "localhost", port: 0))
        // A name, whatever it starts with: the address it resolves to says whether it is loopback.
        #expect(parse("127.studio.lan:8600") == HTTPListen(host: "127.studio.lan", port: 8600))
        #expect(HTTPListen(host: "::1", port: 80).description == "[::1]:80")
    }

    @Test func whatIsNotAnAddressIsRefused() {
        for text in ["", "http://x", "::1:80", "host:", ":80", "host:70000", "host:-1", "[::1]80", "a b:80"] {
            #expect(parse(text) == nil, "\(text)")
        }
    }

    static let rig = """
        inputs:
          pedal:
            match: {name: "PCsensor FootSwitch"}
            bind: {KEY_B: take.toggle}

        """

    /// The profile's errors, or nil when it loads.
    func errors(_ http: String) -> [String]? {
        guard case .failure(let errors) = ProfileLoader.load(Self.rig + http, file: "rig.yaml") else { return nil }
        return errors.diagnostics.map(\.description)
    }

    @Test func theProfileSection() throws {
        #expect(try ProfileLoader.load(Self.rig, file: "rig.yaml").get().http == nil)
        let loaded = try ProfileLoader.load(Self.rig + "http: {listen: 8600}\n", file: "rig.yaml").get()
        #expect(loaded.http == HTTPSpec(listen: HTTPListen(port: 8600)))
        #expect(
            errors("http: {listen: \"x:y\", port: 3}\n") == [
                "rig.yaml:5:16: error: http.listen: 'x:y' is not [ADDR:]PORT: the port is a number from 0 to 65535",
                "rig.yaml:5:23: error: unknown key 'port' in http (expected listen or hosts)",
            ])
    }

    @Test func theHostsThePageAnswersToBesidesItsOwn() throws {
        let loaded = try ProfileLoader.load(
            Self.rig + "http: {listen: 8600, hosts: [Rig.Local, studio-cam_2.lan, 192.168.1.20, \"[fd00::2]\"]}\n",
            file: "rig.yaml"
        ).get()
        #expect(loaded.http?.hosts == ["rig.local", "studio-cam_2.lan", "192.168.1.20", "[fd00::2]"])
        #expect(errors("http: {listen: 8600, hosts: rig.local}\n") == ["rig.yaml:5:29: error: http.hosts must be a list"])
        #expect(
            errors("http: {hosts: [rig.local]}\n") == ["rig.yaml:5:7: error: http needs listen: 127.0.0.1:8600 (or only a port)"])
        let refused =
            errors(
                "http: {listen: 8600, hosts: [\"rig.local:8600\", \"*.example\", \"[zz]\", \"fd00::2\", \"a..b\", \"\"]}\n") ?? []
        #expect(refused.count == 6, "\(refused)")
        #expect(refused.first?.contains("'rig.local:8600' names a port") == true, "\(refused)")
        #expect(refused.dropFirst().first?.contains("'*.example' is not a host name") == true, "\(refused)")
        #expect(refused.dropFirst(2).first?.contains("'[zz]' is not an IPv6 address in brackets") == true, "\(refused)")
    }
}

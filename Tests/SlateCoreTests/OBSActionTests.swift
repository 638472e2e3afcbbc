import Testing

@testable import SlateCore

/// The obs section and the obs action: what reaches obs-websocket, and mistakes named with their place.
@Suite struct OBSActionTests {
    /// Profiles with one pedal, as the rigs' tests load them.
    let profiles = RigsOnABrokerTests()

    func errors(_ yaml: String) -> [String] { profiles.errors(yaml) }

    func request(_ text: String) -> OBSRequest? { try? OBSRequest.parse(text).get() }

    func refusal(_ text: String) -> String? {
        guard case .failure(let error) = OBSRequest.parse(text) else { return nil }
        return error.description
    }

    @Test func requestsAndTheirData() {
        #expect(request("StartRecord") == OBSRequest(requestType: "StartRecord"))
        #expect(
            request("CreateRecordChapter Verse 2")
                == OBSRequest(requestType: "CreateRecordChapter", data: .object(["chapterName": .string("Verse 2")])))
        #expect(
            request(#"SetCurrentProgramScene {"sceneName": "Wide", "n": 2}"#)
                == OBSRequest(
                    requestType: "SetCurrentProgramScene", data: .object(["sceneName": .string("Wide"), "n": .integer(2)])))
        #expect(
            request(#"SetCurrentProgramScene {"sceneName": "Wide"}"#)?.description
                == #"SetCurrentProgramScene {"sceneName":"Wide"}"#)
    }

    @Test func badRequests() {
        #expect(refusal("Start-Record")?.contains("an obs-websocket request's name") == true)
        #expect(refusal("SetCurrentProgramScene Wide")?.contains("takes its data as a JSON object") == true)
        #expect(refusal(#"SetCurrentProgramScene {"sceneName": }"#)?.contains("must be one JSON object") == true)
        #expect(refusal(#"SetCurrentProgramScene {"#)?.contains("must be one JSON object") == true)
    }

    @Test func theSectionAndTheAction() throws {
        let profile = try profiles.load(
            """
            obs: {targets: ["ws://127.0.0.1:4455", "ws://studio-pc:4455"], password-file: ~/.config/slate/obs-password}
            macros:
              go: [obs StartRecord, take.start]
            """)
        #expect(
            profile.obs
                == OBSSpec(targets: ["ws://127.0.0.1:4455", "ws://studio-pc:4455"], passwordFile: "~/.config/slate/obs-password"))
        #expect(profile.macros["go"]?.map(\.action) == [.obs(OBSRequest(requestType: "StartRecord")), .takeStart])
        #expect(
            try ActionText.steps("obs StopRecord", in: profile).get().map(\.action) == [
                .obs(OBSRequest(requestType: "StopRecord"))
            ])
    }

    @Test func mistakes() {
        #expect(
            errors("macros: {go: obs StartRecord}") == [
                "rig.yaml:5:14: error: obs needs an obs section (the OBS instances it goes to)"
            ])
        #expect(errors("obs: {password-file: p}").first?.contains("obs needs targets") == true)
        #expect(errors("obs: {targets: [wss://pc:4455]}").first?.contains("an OBS target is ws://HOST:PORT") == true)
        #expect(errors("obs: {targets: [ws://pc]}").first?.contains("names its host and port") == true)
        #expect(errors("obs: {targets: [ws://pc:4455], password: x}").first?.contains("unknown key 'password' in obs") == true)
        #expect(
            errors("obs: {targets: [ws://pc:4455]}\nmacros: {go: obs Start-Record}").first?.contains("request's name") == true)
    }

    @Test func anOBSAnswerAsALine() {
        let done = ReportFormat(origin: Instant(microseconds: 0)).text(
            .obs(
                OBSReport(
                    time: Instant(microseconds: 1_500_000), target: "ws://127.0.0.1:4455", request: "StartRecord", failure: nil)))
        #expect(done == "    1.500  obs      ws://127.0.0.1:4455 StartRecord: done")
        let failed = ReportLine(
            .obs(
                OBSReport(
                    time: Instant(microseconds: 0), target: "ws://pc:4455", request: "StopRecord",
                    failure: "OBS at ws://pc:4455 is not connected")),
            origin: Instant(microseconds: 0))
        #expect(
            JSONLine.encode(failed)
                == #"{"message":"OBS at ws://pc:4455 is not connected","ok":false,"request":"StopRecord","t":0,"target":"ws://pc:4455","type":"obs"}"#
        )
    }
}

import Foundation
import Testing

@testable import SlateCore

@Suite struct ReplayTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures/recordings", withExtension: nil)!

    func profile(_ name: String) throws -> Profile {
        let text = try String(
            contentsOf: ProfileLoaderTests.profilesFolder.appendingPathComponent(name), encoding: .utf8)
        return try ProfileLoader.load(text, file: name).get()
    }

    func replay(_ recording: String, through profileName: String) throws -> [String] {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent(recording), encoding: .utf8)
        let parsed = try InputRecording.parse(text, file: recording)
        let replay = try Replay(
            profile: profile(profileName), timeline: Timeline(recording: parsed))
        replay.run()
        let format = ReportFormat(origin: replay.origin)
        return replay.driver.reports.map { format.json($0) }
    }

    @Test(arguments: [
        ("pcsensor-footswitch", "pcsensor-footswitch.yaml"), ("griffin-powermate", "powermate.yaml"),
        ("wh1000xm4-avrcp", "avrcp-headset.yaml"),
    ])
    func evemuAndLibinputRecordingsReplayAlike(recording: String, profile: String) throws {
        let evemu = try replay(recording + ".evemu", through: profile)
        let libinput = try replay(recording + ".yml", through: profile)
        #expect(evemu.count >= 3)
        #expect(evemu == libinput)
    }

    @Test func headsetClicksGetFeedbackSounds() throws {
        let lines = try replay("wh1000xm4-avrcp.evemu", through: "avrcp-headset.yaml")
        let sounds = lines.filter { $0.contains("\"type\":\"sound\"") }
        #expect(sounds.contains { $0.contains("\"sound\":\"begin-video-recording\"") })
        #expect(sounds.allSatisfy { $0.contains("\"input\":\"headset\"") })
    }

    @Test func devicesOfOneRecordingAreMergedInTimeOrder() throws {
        func device(_ name: String, _ code: UInt16, _ times: [Int64]) -> RecordedDevice {
            RecordedDevice(
                identity: DeviceIdentity(name: name, codes: [EventCode(type: EventType.key, code: code)]),
                events: times.enumerated().flatMap { index, micros in
                    [
                        InputEvent(
                            time: Instant(microseconds: micros), type: EventType.key, code: code, value: Int32(1 - index % 2)),
                        InputEvent(time: Instant(microseconds: micros), type: EventType.syn, code: SynCode.report, value: 0),
                    ]
                })
        }
        let recording = InputRecording(devices: [
            device("Left", 30, [1_000_000, 1_100_000]), device("Right", 48, [500_000, 1_000_000]),
        ])
        let timeline = Timeline(recording: recording)
        let order = timeline.items.compactMap { entry -> String? in
            guard case .event(let device, let event) = entry.item, event.type == EventType.key else { return nil }
            return "\(device):\(event.time.microseconds):\(event.value)"
        }
        #expect(order == ["1:500000:1", "0:1000000:1", "1:1000000:0", "0:1100000:0"])
        #expect(timeline.start == Instant(microseconds: 500_000))
    }

    @Test func ignoredPressesAreReportedWithTheirReason() throws {
        let profile = try ProfileLoader.load(
            """
            inputs:
              pedals:
                match: {vendor: 0x3553}
                bind: {KEY_B: primary, KEY_C: secondary}
            capture:
              primary: {click: take.toggle}
            """, file: "pedals.yaml"
        ).get()
        let pedal = DeviceIdentity(name: "Pedal", vendor: 0x3553)
        var items: [(time: Instant, item: Timeline.Item)] = []
        func frame(_ micros: Int64, _ code: UInt16, _ value: Int32) {
            let time = Instant(microseconds: micros)
            items.append((time, .event(device: 0, InputEvent(time: time, type: EventType.key, code: code, value: value))))
            items.append((time, .event(device: 0, InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))))
        }
        frame(0, 48, 1)  // KEY_B
        frame(100_000, 46, 1)  // KEY_C while KEY_B is down
        frame(150_000, 46, 0)
        frame(200_000, 30, 1)  // KEY_A: not bound
        frame(250_000, 30, 0)
        frame(300_000, 48, 0)
        items.append((Instant(microseconds: 400_000), .captureActive(false)))
        frame(500_000, 48, 1)
        frame(600_000, 48, 0)
        let replay = try Replay(
            profile: profile, timeline: Timeline(devices: [pedal], items: items))
        replay.run()
        let format = ReportFormat(origin: replay.origin)
        let ignored = replay.driver.reports.filter {
            if case .ignored = $0 { return true }
            return false
        }
        #expect(
            ignored.map { format.json($0) } == [
                #"{"code":"KEY_C","input":"pedals","reason":"pedals KEY_B is in progress","t":0.1,"type":"ignored"}"#,
                #"{"code":"KEY_A","input":"pedals","reason":"not bound","t":0.2,"type":"ignored"}"#,
                #"{"code":"KEY_B","input":"pedals","reason":"capture inactive","t":0.5,"type":"ignored"}"#,
            ])
        #expect(
            format.text(ignored[0])
                == "    0.100  ignored  pedals       KEY_C            pedals KEY_B is in progress")
    }

    @Test func unmatchedRecordingExplainsEveryInput() throws {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("griffin-powermate.evemu"), encoding: .utf8)
        let parsed = try InputRecording.parse(text, file: "griffin-powermate.evemu")
        let error = #expect(throws: ReplayError.self) {
            try Replay(
                profile: profile("pcsensor-footswitch.yaml"), timeline: Timeline(recording: parsed))
        }
        #expect(
            error?.description.hasSuffix(
                "input pedals: vendor 0x077d is not 0x3553; or vendor 0x077d is not 0x1a86; or vendor 0x077d is not 0x0c45; or vendor 0x077d is not 0x0c45; or vendor 0x077d is not 0x413d"
            ) == true)
    }
}

import Foundation
import Testing

@testable import SlateCore

/// Recordings as people paste them into bug reports, mailing lists and blogs.
@Suite struct PastedRecordingTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures/recordings", withExtension: nil)!

    func fixture(_ name: String) throws -> String {
        try String(contentsOf: Self.fixtures.appendingPathComponent(name), encoding: .utf8)
    }

    func parse(_ name: String) throws -> InputRecording { try InputRecording.parse(fixture(name), file: name) }

    func profile(_ text: String) throws -> Profile { try ProfileLoader.load(text, file: "rig.yaml").get() }

    func replayLines(_ recording: InputRecording, _ profile: Profile) throws -> [String] {
        let replay = try Replay(profile: profile, timeline: Timeline(recording: recording))
        replay.run()
        let format = ReportFormat(origin: replay.origin)
        return replay.driver.reports.map { Transcript.fold(format.text($0)) }
    }

    static let pedalProfile = """
        inputs:
          pedals:
            match: {vendor: 0x3553, product: 0xb001}
            bind: {KEY_B: primary, KEY_A: secondary}
        capture:
          primary: {click: take.toggle, hold: take.start, release: take.stop}
          secondary: {click: takes.export}
        """

    // MARK: Terminal echo

    @Test func terminalEchoBeforeEventsIsSkippedWithAWarningPerLine() throws {
        let pasted = try parse("pasted-terminal-echo.evemu")
        let clean = try parse("pcsensor-footswitch.evemu")
        #expect(pasted.devices == clean.devices)
        #expect(
            pasted.warnings.map(\.description) == [
                "pasted-terminal-echo.evemu:49: warning: terminal echo '^[OP' before 'E:' skipped",
                "pasted-terminal-echo.evemu:52: warning: terminal echo '^[[15;2~' before 'E:' skipped",
                "pasted-terminal-echo.evemu:55: warning: terminal echo '^[[A^[[B' before 'E:' skipped",
                "pasted-terminal-echo.evemu:67: warning: terminal echo '^[[24~' skipped",
                "pasted-terminal-echo.evemu:74: warning: terminal echo '^C' skipped",
            ])
    }

    @Test func textThatIsNotTerminalEchoIsAnErrorWithAHint() {
        let head = "N: Pedal\nI: 0003 3553 b001 0110\n"
        let prompt = #expect(throws: InputRecordingError.self) {
            try EvemuRecording.parse(head + "user@rig:~$ E: 0.000000 0001 0030 1\n", file: "p.evemu")
        }
        #expect(
            prompt?.description
                == "p.evemu:3: error: unexpected line 'user@rig:~$ E: 0.000000 0001 0030 1': expected a line such as"
                + " 'N:', 'I:', 'B:' or 'E:' (hint: delete the text before 'E:' on this line)")
        let after = #expect(throws: InputRecordingError.self) {
            try EvemuRecording.parse(head + "\u{1B}OPoops E: 0.000000 0001 0030 1\n", file: "p.evemu")
        }
        #expect(
            after?.description
                == "p.evemu:3: error: unexpected text 'oops E: 0.000000 0001 0030 1' after the terminal echo '^[OP'"
                + " (hint: delete this line, or keep only its 'E:' event if it has one)")
    }

    @Test func messagesShowControlCharactersInCaretNotation() {
        let error = #expect(throws: InputRecordingError.self) {
            try EvemuRecording.parse("N: Pedal\nI: 0003 3553 b001 0110\n\u{1}\u{1B}]0;title\u{07}hello\n", file: "c.evemu")
        }
        #expect(
            error?.description
                == "c.evemu:3: error: unexpected text 'hello' after the terminal echo '^A^[]0;title^G'"
                + " (hint: delete this line, or keep only its 'E:' event if it has one)")
        let value = #expect(throws: InputRecordingError.self) {
            try EvemuRecording.parse("N: Pedal\nI: 0003 3553 b001 0110\nE: 0.000000 0001 0030 1\u{1B}[A\n", file: "c.evemu")
        }
        #expect(value?.description == "c.evemu:3: error: invalid event value '1^[[A': expected a decimal number")
    }

    @Test func echoAloneOrBeforeTheFirstLineDoesNotHideTheFormat() {
        #expect(InputRecordingFormat.detect("^C\n^[OPE: 0.000000 0001 0030 1\n") == .evemu)
        #expect(InputRecordingFormat.detect("\u{1B}[15;2~N: Pedal\n") == .evemu)
        #expect(TerminalEcho.prefixLength(Array("^[[15;2~E:".utf8), 0, 10) == 8)
        #expect(TerminalEcho.prefixLength(Array("\u{1B}OP \u{1B}[24~ E:".utf8), 0, 12) == 10)
        #expect(TerminalEcho.prefixLength(Array("^[[15;2".utf8), 0, 7) == 0)
        #expect(TerminalEcho.prefixLength(Array("E: 1".utf8), 0, 4) == 0)
    }

    @Test func echoOnEveryLineIsCountedAfterTheFirstFew() throws {
        var text = "N: Pedal\nI: 0003 3553 b001 0110\n"
        for second in 0..<8 {
            text += "^[OPE: \(second).000000 0001 0030 1\n^[OPE: \(second).000000 0000 0000 0\n"
            text += "E: \(second).100000 0001 0030 0\nE: \(second).100000 0000 0000 0\n"
        }
        let recording = try EvemuRecording.parse(text, file: "e.evemu")
        #expect(recording.devices[0].events.count == 32)
        #expect(recording.warnings.count == InputRecordingWarnings.limit + 2)
        #expect(recording.warnings.first?.message.hasPrefix("no 'B:' lines") == true)
        #expect(recording.warnings.filter { $0.message.hasPrefix("terminal echo") }.map(\.line) == [3, 4, 7, 8, 11])
        #expect(
            recording.warnings.last?.description
                == "e.evemu:32: warning: 11 more lines with terminal echo read the same way, the last one here")
    }

    // MARK: Events without the device description

    @Test func eventLinesAloneAreADeviceWithoutDescription() throws {
        let snippet = try parse("footswitch-snippet.evemu")
        let full = try parse("pcsensor-footswitch.evemu").devices[0]
        let device = try #require(snippet.devices.first)
        #expect(device.described == [])
        #expect(device.events == full.events)
        #expect(device.identity.name == "")
        #expect(device.identity.vendor == 0)
        #expect(
            device.identity.codes == [
                EventCode(type: EventType.key, code: 30), EventCode(type: EventType.key, code: 48),
                EventCode(type: EventType.msc, code: 4),
            ])
        #expect(
            snippet.warnings.map(\.description) == [
                "footswitch-snippet.evemu:1: warning: no device description ('N:' and 'I:' lines) before the events:"
                    + " the recording does not say the device's name and ids",
                "footswitch-snippet.evemu:1: warning: no 'B:' lines: the device's codes are taken from the events it"
                    + " sends (KEY_A, KEY_B, MSC_SCAN)",
            ])
    }

    @Test func aSnippetReplaysOnceItsIdentityIsGiven() throws {
        let snippet = try parse("footswitch-snippet.evemu")
        #expect(throws: ReplayError.self) { try replayLines(snippet, profile(Self.pedalProfile)) }
        let ids = try #require(DeviceIDs(parsing: "0003:3553:b001"))
        let (described, count) = snippet.describing(name: "PCsensor FootSwitch", ids: ids)
        #expect(count == 1)
        #expect(described.devices[0].described == [.name, .ids])
        #expect(described.devices[0].identity.bus == Bus.usb)
        let lines = try replayLines(described, profile(Self.pedalProfile))
        let full = try replayLines(parse("pcsensor-footswitch.evemu"), profile(Self.pedalProfile))
        #expect(lines.count >= 3)
        #expect(lines == full)
        #expect(try parse("pcsensor-footswitch.evemu").describing(name: "Other", ids: ids).described == 0)
    }

    @Test func aSnippetMatchesAnInputThatOnlyAsksForCodes() throws {
        let byCodes = try profile(
            """
            inputs:
              pedals:
                match: {has: [KEY_B]}
                bind: {KEY_B: primary}
            capture:
              primary: {click: take.toggle}
            """)
        let lines = try replayLines(parse("footswitch-snippet.evemu"), byCodes)
        #expect(lines.first == "0.000 capture pedals KEY_B primary began")
        #expect(lines.contains("0.087 action take.toggle -> started take 1 (pedals KEY_B primary click)"))
    }

    @Test func deviceIDsAreReadAsEvemuWritesThem() {
        #expect(DeviceIDs(parsing: "0003:3553:b001") == DeviceIDs(bus: 3, vendor: 0x3553, product: 0xb001))
        #expect(
            DeviceIDs(parsing: "0x5:0x054c:0x0ce6:0x0100") == DeviceIDs(bus: 5, vendor: 0x54c, product: 0xce6, version: 0x100))
        #expect(DeviceIDs(parsing: "usb:3553:B001") == DeviceIDs(bus: 3, vendor: 0x3553, product: 0xb001))
        #expect(DeviceIDs(parsing: "3553:b001") == nil)
        #expect(DeviceIDs(parsing: "0003:3553:b001x") == nil)
        #expect(DeviceIDs(parsing: "0003:13553:b001") == nil)
        #expect(DeviceIDs(parsing: "0003:+355:b001") == nil)
    }

    @Test func aNameWithoutIdsStillReadsItsEvents() throws {
        let recording = try EvemuRecording.parse(
            "N: Pedal\nE: 0.100000 0001 0030 1\nE: 0.100000 0000 0000 0\n", file: "n.evemu")
        #expect(recording.devices[0].described == [.name])
        #expect(recording.devices[0].identity.name == "Pedal")
        #expect(recording.devices[0].events.count == 2)
        #expect(
            recording.warnings.map(\.description).contains(
                "n.evemu:2: warning: no 'I:' line before the events: the recording does not say the device's ids"))
    }

    @Test func libinputWithoutCodesTakesThemFromItsEvents() throws {
        let text = """
            version: 1
            devices:
            - evdev:
                name: Pedal
                id: [3, 13651, 45057, 272]
              events:
              - evdev:
                - [0, 0, 1, 48, 1]
                - [0, 0, 0, 0, 0]
            """
        let recording = try LibinputRecording.parse(text, file: "c.yml")
        #expect(recording.devices[0].identity.codes == [EventCode(type: EventType.key, code: 48)])
        #expect(recording.devices[0].described == [.name, .ids])
        #expect(
            recording.warnings.map(\.description) == [
                "c.yml:4: warning: devices[0].evdev has no 'codes': the device's codes are taken from the events it sends (KEY_B)"
            ])
    }

    // MARK: Tabs

    @Test func libinputIndentedWithTabsIsRead() throws {
        let tabbed = try parse("kernel-doc-tabs.yml")
        let spaced = try parse("pcsensor-footswitch.yml")
        #expect(tabbed.devices == spaced.devices)
        #expect(
            tabbed.warnings.map(\.description) == [
                "kernel-doc-tabs.yml:1: warning: tab characters in YAML, which indents with spaces only:"
                    + " read as tab stops every 8 columns"
            ])
    }

    @Test func oneTabPerLevelIsReadAtTheWidthThatFits() throws {
        let text = [
            "version: 1", "devices:", "- node: /dev/input/event3", "\tevdev:", "\t\tname: \"Pedal\tLeft\"",
            "\t\tid: [3, 13651, 45057, 272]", "\t\tcodes:", "\t\t\t1: [48]", "\tevents:", "\t- evdev:",
            "\t\t- [0,\t0, 1, 48, 1]", "\t\t- [0, 0, 0, 0, 0]",
        ].joined(separator: "\n")
        let recording = try LibinputRecording.parse(text, file: "t.yml")
        #expect(recording.devices[0].identity.name == "Pedal\tLeft")
        #expect(recording.devices[0].events.map(\.value) == [1, 0])
        #expect(recording.warnings.first?.message.hasSuffix("every 2 columns") == true)
    }

    @Test func tabsThatNoWidthMakesSenseOfAreAnErrorWithAHint() {
        let error = #expect(throws: InputRecordingError.self) {
            try LibinputRecording.parse("version: 1\ndevices:\n\t- [\n", file: "t.yml")
        }
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("invalid YAML: found character that cannot start any token") == true)
        #expect(error?.hint == "line 3 is indented with tabs: indent with spaces")
    }

    @Test func tabsYAMLAllowsAreNoReasonForAWarning() throws {
        let text = "version: 1\ndevices:\n- evdev: {name: \"Pedal\tLeft\", id: [3, 1, 2, 3], codes: {1: [48]}}\n"
        let recording = try LibinputRecording.parse(text, file: "q.yml")
        #expect(recording.devices[0].identity.name == "Pedal\tLeft")
        #expect(recording.warnings.isEmpty)
    }

    // MARK: Time

    @Test func timeStartsAtTheFirstEventAUserMade() throws {
        let text = """
            N: PCsensor FootSwitch
            I: 0003 3553 b001 0110
            E: 0.000000 0000 0000 0000
            E: 48.000000 0004 0004 458757
            E: 48.000000 0001 0030 0001
            E: 48.000000 0000 0000 0000
            E: 48.100000 0001 0030 0000
            E: 48.100000 0000 0000 0000

            """
        let recording = try EvemuRecording.parse(text, file: "late.evemu")
        let timeline = Timeline(recording: recording)
        #expect(timeline.start == Instant(seconds: 0, microseconds: 0))
        #expect(timeline.origin == Instant(seconds: 48, microseconds: 0))
        let lines = try replayLines(recording, profile(Self.pedalProfile))
        #expect(lines.first == "0.000 capture pedals KEY_B primary began")
        #expect(lines.last == "0.100 action take.toggle -> started take 1 (pedals KEY_B primary click)")
    }

    @Test func timeThatGoesBackKeepsFileOrderAndTheRelease() throws {
        let text = """
            N: PCsensor FootSwitch
            I: 0003 3553 b001 0110
            E: 2.000000 0001 0030 0001
            E: 2.000000 0000 0000 0000
            E: 1.950000 0001 0030 0000
            E: 1.950000 0000 0000 0000
            E: 3.000000 0001 001e 0001
            E: 3.000000 0000 0000 0000
            E: 3.100000 0001 001e 0000
            E: 3.100000 0000 0000 0000

            """
        let recording = try EvemuRecording.parse(text, file: "back.evemu")
        let times = recording.devices[0].events.map(\.time.microseconds)
        #expect(times == [2_000_000, 2_000_000, 2_000_000, 2_000_000, 3_050_000, 3_050_000, 3_150_000, 3_150_000])
        #expect(
            recording.warnings.filter { $0.message.hasPrefix("time") }.map(\.description) == [
                "back.evemu:5: warning: time 1.950000 is earlier than the event before it (2.000000): the events stay"
                    + " in file order, this one and the ones after it moved 0.050000 s later"
            ])
        let lines = try replayLines(recording, profile(Self.pedalProfile))
        #expect(
            lines == [
                "0.000 capture pedals KEY_B primary began", "0.000 capture pedals KEY_B primary ended",
                "0.000 action take.toggle -> started take 1 (pedals KEY_B primary click)",
                "1.050 capture pedals KEY_A secondary began", "1.150 capture pedals KEY_A secondary ended",
                "1.150 action takes.export -> exporting 1 take (pedals KEY_A secondary click)",
            ])
    }

    @Test func libinputTimeThatGoesBackIsKeptInFileOrderToo() throws {
        let text = """
            version: 1
            devices:
            - evdev: {name: Pedal, id: [3, 13651, 45057, 272], codes: {1: [48]}}
              events:
              - evdev:
                - [5, 0, 1, 48, 1]
                - [5, 0, 0, 0, 0]
              - evdev:
                - [4, 900000, 1, 48, 0]
                - [4, 900000, 0, 0, 0]
            """
        let recording = try LibinputRecording.parse(text, file: "back.yml")
        #expect(recording.devices[0].events.map(\.value) == [1, 0, 0, 0])
        #expect(recording.devices[0].events.allSatisfy { $0.time == Instant(seconds: 5, microseconds: 0) })
        #expect(recording.warnings.map(\.line) == [9])
    }

    @Test func timeThatGoesBackNearTheLimitsDoesNotOverflow() throws {
        let text =
            "N: P\nI: 0003 3553 b001 0110\nE: 9223372036853.999999 0001 0030 1\nE: 0.000000 0000 0000 0\n"
            + "E: 9223372036853.999999 0001 0030 0\nE: 0.000000 0000 0000 0\n"
        let events = try EvemuRecording.parse(text, file: "big.evemu").devices[0].events
        #expect(events.count == 4)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    // MARK: Files that end early

    @Test func evemuCutShortReplaysWhatIsComplete() throws {
        let cut = try parse("footswitch-cut-short.evemu")
        let full = try parse("pcsensor-footswitch.evemu").devices[0]
        #expect(cut.devices[0].events == Array(full.events.prefix(15)))
        #expect(
            cut.warnings.map(\.description) == [
                "footswitch-cut-short.evemu:64: warning: the file ends early: the events from this line on have no"
                    + " SYN_REPORT after them and are dropped",
                "footswitch-cut-short.evemu:65: warning: the file ends early: the half-written last line"
                    + " 'E: 2.091500 0001 00' is dropped",
            ])
    }

    @Test func libinputCutShortReplaysWhatIsComplete() throws {
        let cut = try parse("footswitch-cut-short.yml")
        let evemu = try parse("footswitch-cut-short.evemu")
        #expect(cut.devices[0].events == evemu.devices[0].events)
        #expect(
            cut.warnings.map(\.description) == [
                "footswitch-cut-short.yml:72: warning: the file ends early: the events from this line on have no"
                    + " SYN_REPORT after them and are dropped",
                "footswitch-cut-short.yml:73: warning: the file ends early: the half-written last line is dropped",
            ])
        let lines = try replayLines(cut, profile(Self.pedalProfile))
        #expect(
            lines.suffix(2) == [
                "2.070 capture pedals KEY_B primary cancelled",
                "2.070 action take.stop -> stopped take 1 (pedals KEY_B primary release)",
            ])
    }

    @Test func aLastFrameWithoutSynReportIsDropped() throws {
        let evemu = try EvemuRecording.parse(
            "N: P\nI: 0003 3553 b001 0110\nB: 01 00 00 00 00 00 00 01 00\n"
                + "E: 0.100000 0001 0030 1\nE: 0.100000 0000 0000 0\nE: 0.200000 0001 0030 0\n",
            file: "f.evemu")
        #expect(evemu.devices[0].events.count == 2)
        #expect(evemu.warnings.map(\.line) == [6])
        let libinput = try LibinputRecording.parse(
            libinputPedal(frames: ["[0, 100000, 1, 48, 1]", "[0, 100000, 0, 0, 0]"], ["[0, 200000, 1, 48, 0]"]),
            file: "f.yml")
        #expect(libinput.devices[0].events.count == 2)
        #expect(libinput.warnings.map(\.line) == [12])
    }

    @Test func aLastEventLineMissingItsFieldsIsDroppedEvenWithItsNewline() throws {
        let text = "N: P\nI: 0003 3553 b001 0110\nE: 0.100000 0001 0030 1\nE: 0.100000 0000 0000 0\nE: 0.2000\n\n"
        let recording = try EvemuRecording.parse(text, file: "n.evemu")
        #expect(recording.devices[0].events.count == 2)
        #expect(
            recording.warnings.last?.description
                == "n.evemu:5: warning: the file ends early: the half-written last line 'E: 0.2000' is dropped")
        let complete = #expect(throws: InputRecordingError.self) {
            try EvemuRecording.parse(text.replacingOccurrences(of: "E: 0.2000\n", with: "E: 0.2 0001 0030 0\n"), file: "n.evemu")
        }
        #expect(complete?.line == 5)
    }

    @Test func libinputListingFewerDevicesThanItSaysEndsEarly() throws {
        let text = libinputPedal(frames: ["[0, 0, 1, 48, 1]", "[0, 0, 0, 0, 0]"]).replacingOccurrences(
            of: "version: 1\n", with: "version: 1\nndevices: 2\n")
        let recording = try LibinputRecording.parse(text, file: "d.yml")
        #expect(recording.devices.count == 1)
        #expect(
            recording.warnings.map(\.description) == [
                "d.yml:2: warning: ndevices is 2 but 'devices' lists 1: the file ends early"
            ])
    }

    @Test func aBrokenLineBeforeTheEndIsStillAnError() {
        let text = libinputPedal(frames: ["[0, 0, 1, 48, 1", "[0, 0, 0, 0, 0]"])
        let error = #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(text, file: "b.yml") }
        #expect(error?.message.hasPrefix("invalid YAML") == true)
    }

    /// A libinput recording of one pedal with these frames, one event per line.
    func libinputPedal(frames: [String]...) -> String {
        var lines = [
            "version: 1", "devices:", "- evdev:", "    name: Pedal", "    id: [3, 13651, 45057, 272]",
            "    codes: {1: [48]}", "  events:",
        ]
        for frame in frames {
            lines.append("  - evdev:")
            lines += frame.map { "    - " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

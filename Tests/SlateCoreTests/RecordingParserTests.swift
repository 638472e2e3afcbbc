import Foundation
import Testing

@testable import SlateCore

// MARK: Fixtures

private func fixtureURL(_ path: String) throws -> URL {
    let url = try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures").appendingPathComponent(path)
    #expect(FileManager.default.fileExists(atPath: url.path), "missing fixture \(path)")
    return url
}

private func fixture(_ name: String) throws -> String {
    try String(contentsOf: fixtureURL("recordings/" + name), encoding: .utf8)
}

private func parseFixture(_ name: String) throws -> InputRecording {
    try InputRecording.parse(fixture(name), file: name)
}

private func code(_ name: String) throws -> EventCode { try #require(EventCodes.code(named: name)) }

private let mscScan = EventCode(type: EventType.msc, code: 4)
private let mscPulseLED = EventCode(type: EventType.msc, code: 1)
private let repDelay = EventCode(type: EventType.rep, code: 0)
private let repPeriod = EventCode(type: EventType.rep, code: 1)

private func at(_ seconds: Int64, _ micros: Int64) -> Instant { Instant(seconds: seconds, microseconds: micros) }

/// The non-`EV_SYN`, non-`EV_MSC` events as (time, code, value).
private func keyAndRelEvents(_ device: RecordedDevice) -> [(Instant, EventCode, Int32)] {
    device.events.filter { $0.type != EventType.syn && $0.type != EventType.msc }
        .map { ($0.time, EventCode(type: $0.type, code: $0.code), $0.value) }
}

@Suite("RecordingParser fixtures")
struct RecordingParserFixtureTests {
    @Test func detectsFormats() throws {
        for name in ["pcsensor-footswitch.evemu", "griffin-powermate.evemu", "wh1000xm4-avrcp.evemu"] {
            #expect(InputRecordingFormat.detect(try fixture(name)) == .evemu, "\(name)")
        }
        for name in ["pcsensor-footswitch.yml", "griffin-powermate.yml", "wh1000xm4-avrcp.yml"] {
            #expect(InputRecordingFormat.detect(try fixture(name)) == .libinputRecord, "\(name)")
        }
        #expect(InputRecordingFormat.detect("N: x\nI: 0003 0001 0002 0003\n") == .evemu)
        #expect(InputRecordingFormat.detect("\n# a comment\nversion: 1\n") == .libinputRecord)
        #expect(InputRecordingFormat.detect("---\nversion: 1\n") == .libinputRecord)
        #expect(InputRecordingFormat.detect("hello world\n") == nil)
        #expect(InputRecordingFormat.detect("") == nil)
    }

    @Test func footswitchEvemu() throws {
        let recording = try parseFixture("pcsensor-footswitch.evemu")
        try #require(recording.devices.count == 1)
        let device = recording.devices[0]
        #expect(device.identity.name == "PCsensor FootSwitch")
        #expect(device.identity.bus == Bus.usb)
        #expect(device.identity.vendor == 0x3553)
        #expect(device.identity.product == 0xb001)
        #expect(device.identity.version == 0x0110)
        #expect(device.identity.udev.isEmpty)
        #expect(
            device.identity.codes == [
                try code("KEY_A"), try code("KEY_B"), try code("KEY_C"), mscScan, repDelay, repPeriod,
            ])
        #expect(device.events.count == 24)
        #expect(device.events[0] == InputEvent(time: at(0, 0), type: EventType.msc, code: 4, value: 458757))
        #expect(device.events[1] == InputEvent(time: at(0, 0), type: EventType.key, code: 48, value: 1))
        #expect(device.events[2] == InputEvent(time: at(0, 0), type: EventType.syn, code: 0, value: 0))

        let keyB = try code("KEY_B")
        let keyA = try code("KEY_A")
        let keys = keyAndRelEvents(device)
        let expected: [(Instant, EventCode, Int32)] = [
            (at(0, 0), keyB, 1), (at(0, 87912), keyB, 0),  // click
            (at(1, 503210), keyB, 1), (at(2, 3377), keyB, 2), (at(2, 36710), keyB, 2), (at(2, 70043), keyB, 2),
            (at(2, 91500), keyB, 0),  // hold with autorepeat
            (at(3, 250004), keyA, 1), (at(3, 342118), keyA, 0),
        ]
        #expect(keys.count == expected.count)
        for (got, want) in zip(keys, expected) {
            #expect(got.0 == want.0 && got.1 == want.1 && got.2 == want.2, "\(got) != \(want)")
        }
        #expect(keys[6].0 - keys[2].0 == .microseconds(588_290))
    }

    @Test func footswitchLibinputMatchesEvemu() throws {
        let evemu = try parseFixture("pcsensor-footswitch.evemu").devices[0]
        let recording = try parseFixture("pcsensor-footswitch.yml")
        try #require(recording.devices.count == 1)
        let device = recording.devices[0]
        #expect(device.events == evemu.events)
        var identity = device.identity
        #expect(identity.udev["ID_INPUT_KEY"] == "1")
        #expect(identity.udev["ID_INPUT_KEYBOARD"] == "1")
        #expect(identity.udev["ID_VENDOR_ID"] == "3553")
        #expect(identity.udev["LIBINPUT_DEVICE_GROUP"] == "3/3553/b001:usb-0000:00:14.0-2")
        #expect(identity.udev.count == 7)
        identity.udev = [:]
        #expect(identity == evemu.identity)
    }

    @Test func libinputObfuscatedKeysAreKeptAsRecorded() throws {
        let device = try parseFixture("pcsensor-footswitch-obfuscated.yml").devices[0]
        #expect(device.events.map(\.value) == [30, 1, 0, 30, 0, 0])
        #expect(device.events.filter { $0.type == EventType.key }.map(\.code) == [30, 30])
        #expect(device.identity.codes.contains(try code("KEY_B")))
    }

    @Test func powermateBothFormats() throws {
        let evemu = try parseFixture("griffin-powermate.evemu").devices[0]
        let libinput = try parseFixture("griffin-powermate.yml").devices[0]
        for device in [evemu, libinput] {
            #expect(device.identity.name == "Griffin PowerMate")
            #expect(device.identity.bus == Bus.usb)
            #expect(device.identity.vendor == 0x077d)
            #expect(device.identity.product == 0x0410)
            #expect(device.identity.version == 0x0400)
            #expect(device.identity.codes == [try code("BTN_0"), try code("REL_DIAL"), mscPulseLED])
        }
        #expect(libinput.events == evemu.events)
        #expect(libinput.identity.udev["ID_INPUT_KEY"] == "1")

        let dial = try code("REL_DIAL")
        let turns = keyAndRelEvents(evemu).filter { $0.1 == dial }.map(\.2)
        #expect(turns == [1, 1, 2, 1, -1, -2])
        let button = keyAndRelEvents(evemu).filter { $0.1 == (try? code("BTN_0")) }
        #expect(button.map(\.2) == [1, 0])
        #expect(button[1].0 - button[0].0 == .microseconds(212_345))
    }

    @Test func bluetoothHeadsetBothFormats() throws {
        let evemu = try parseFixture("wh1000xm4-avrcp.evemu").devices[0]
        let libinput = try parseFixture("wh1000xm4-avrcp.yml").devices[0]
        for device in [evemu, libinput] {
            #expect(device.identity.name == "WH-1000XM4 (AVRCP)")
            #expect(device.identity.bus == Bus.bluetooth)
            #expect(device.identity.vendor == 0)
            #expect(device.identity.product == 0)
            #expect(device.identity.codes.count == 11)
            #expect(
                device.identity.codes.isSuperset(of: [
                    try code("KEY_PLAYCD"), try code("KEY_PAUSECD"), try code("KEY_VOLUMEUP"),
                    try code("KEY_VOLUMEDOWN"), try code("KEY_NEXTSONG"), repDelay, repPeriod,
                ]))
        }
        #expect(libinput.events == evemu.events)
        #expect(libinput.identity.udev == ["ID_INPUT": "1", "ID_INPUT_KEY": "1", "ID_BUS": "bluetooth"])

        let keys = keyAndRelEvents(evemu)
        let play = try code("KEY_PLAYCD")
        let pause = try code("KEY_PAUSECD")
        #expect(keys.map(\.1) == [play, play, pause, pause])
        #expect(keys.map(\.2) == [1, 0, 1, 0])
        #expect(keys[1].0 - keys[0].0 == .microseconds(10_183))
        #expect(keys[3].0 - keys[2].0 == .microseconds(9_975))
    }
}

// MARK: Format details

@Suite("RecordingParser details")
struct RecordingParserDetailTests {
    @Test func evemuKeepsAbsoluteTimestampsAndHandlesCRLF() throws {
        let text =
            "# EVEMU 1.3\r\nN: Pedal #2 \r\nI: 0003 3553 B001 0110\r\n\r\n"
            + "E: 1718000000.123456 0001 0030 0001\t# EV_KEY / KEY_B 1\r\n"
            + "E: 1718000000.123456 0000 0000 0000\r\n" + "E: 1718000000.133456 0001 0030 -001\r\n"
            + "E: 1718000000.133456 0000 0000 0000\r\n"
        let device = try EvemuRecording.parse(text, file: "crlf.evemu").devices[0]
        #expect(device.identity.name == "Pedal #2")
        #expect(device.identity.product == 0xb001)
        #expect(device.identity.codes == [try code("KEY_B")])
        #expect(device.described == [.name, .ids])
        #expect(
            device.events.map(\.time.microseconds) == [
                1_718_000_000_123_456, 1_718_000_000_123_456, 1_718_000_000_133_456, 1_718_000_000_133_456,
            ])
        #expect(device.events[2].value == -1)
    }

    @Test func evemuReadsAxesLedsAndSwitches() throws {
        let text = """
            N: Tablet
            I: 0018 056a 0357 0100
            P: 01 00 00 00 00 00 00 00
            B: 03 03 00 00 00 00 00 00 00
            A: 00 0 31496 4 0 200
            A: 01 0 19685 4 0 200
            L: 00 1
            S: 00 0
            E: 0.000001 0003 0000 15000
            E: 0.000001 0003 0001 -12
            E: 0.000001 0000 0000 0

            """
        let device = try EvemuRecording.parse(text, file: "tablet.evemu").devices[0]
        #expect(device.identity.codes == [EventCode(type: EventType.abs, code: 0), EventCode(type: EventType.abs, code: 1)])
        #expect(device.events.map(\.value) == [15000, -12, 0])
    }

    @Test func libinputSeveralDevicesAndEmptyEvents() throws {
        let text = """
            version: 1
            ndevices: 2
            devices:
              - node: /dev/input/event3
                evdev:
                  name: Pedal
                  id: [3, 1, 2, 3]
                  codes: {1: [48]}
                events:
                  - evdev:
                    - [12, 500, 1, 48, 1]
                    - [12, 500, 0, 0, 0]
              - node: /dev/input/event4
                evdev:
                  name: 'Knob: left'
                  id: [5, 0, 0, 0]
                  absinfo:
                    0: [0, 100, 0, 0, 0]
                events:

            """
        let recording = try LibinputRecording.parse(text, file: "two.yml")
        #expect(recording.devices.count == 2)
        #expect(
            recording.devices[0].events == [
                InputEvent(time: at(12, 500), type: 1, code: 48, value: 1),
                InputEvent(time: at(12, 500), type: 0, code: 0, value: 0),
            ])
        #expect(recording.devices[1].identity.name == "Knob: left")
        #expect(recording.devices[1].identity.bus == Bus.bluetooth)
        #expect(recording.devices[1].events.isEmpty)
    }

    @Test func parsesUTF8BytesAndRejectsInvalidUTF8() throws {
        let good = Array("N: Pedal\nI: 0003 0001 0002 0003\n".utf8)
        #expect(try InputRecording.parse(utf8: good, file: "a.evemu").devices[0].identity.name == "Pedal")
        let bad = Array("N: Pedal\nI: 0003 0001 0002 0003\nE: 0.000000 0001 0030 1 # \u{0}".utf8) + [0xff, 0x0a]
        let error = #expect(throws: InputRecordingError.self) { try InputRecording.parse(utf8: bad, file: "b.evemu") }
        #expect(error?.description == "b.evemu:3: error: the file is not valid UTF-8 text")
    }

    @Test func unrecognizedFormat() {
        let error = #expect(throws: InputRecordingError.self) {
            try InputRecording.parse("# just a comment\n\nhello there\n", file: "x.txt")
        }
        #expect(error?.line == 3)
        #expect(error?.description.hasPrefix("x.txt:3: error: unrecognized recording format") == true)
        let empty = #expect(throws: InputRecordingError.self) { try InputRecording.parse("\n\n", file: "e.txt") }
        #expect(empty?.description.hasPrefix("e.txt:1: error: empty recording") == true)
    }

    @Test func errorDescription() {
        let error = InputRecordingError(file: "pedal.evemu", line: 12, message: "something is wrong")
        #expect(error.description == "pedal.evemu:12: error: something is wrong")
    }
}

// MARK: Malformed input

/// A malformed recording and the exact error it must give.
struct Malformed: CustomTestStringConvertible, Sendable {
    var text: String
    var expected: String
    var testDescription: String { expected }
}

private let evemuHead = "# EVEMU 1.3\nN: Pedal\nI: 0003 3553 b001 0110\n"

private func evemu(_ body: String, _ expected: String) -> Malformed {
    Malformed(text: evemuHead + body, expected: "t.evemu:" + expected)
}

@Test(
    "RecordingParser evemu errors",
    arguments: [
        Malformed(text: "", expected: "t.evemu:1: error: no device description: expected an 'N: <device name>' line"),
        Malformed(
            text: "# EVEMU 1.3\n# nothing else\n",
            expected: "t.evemu:2: error: no device description: expected an 'N: <device name>' line"),
        Malformed(
            text: "N: Pedal\n",
            expected: "t.evemu:1: error: 'N:' line without an 'I: <bus> <vendor> <product> <version>' line after it"),
        Malformed(
            text: "N: Pedal\n\n# comment\nB: 01 00 00 00 00 00 00 00 00\n",
            expected: "t.evemu:4: error: expected 'I: <bus> <vendor> <product> <version>' after the 'N:' line"),
        Malformed(text: "N:   \n", expected: "t.evemu:1: error: 'N:' line without a device name"),
        Malformed(text: "I: 0003 0001 0002 0003\n", expected: "t.evemu:1: error: 'I:' line before the 'N:' line"),
        Malformed(
            text: "N: Pedal\nI: 0003 zz b001 0110\n",
            expected: "t.evemu:2: error: invalid vendor 'zz': expected a hexadecimal number"),
        Malformed(text: "N: Pedal\nI: 0003 3553 b001\n", expected: "t.evemu:2: error: missing version"),
        Malformed(
            text: "N: Pedal\nI: 0003 13553 b001 0110\n",
            expected: "t.evemu:2: error: vendor '13553' is out of range (at most 0xffff)"),
        Malformed(
            text: "N: Pedal\nI: 0003 3553 b001 0110 07\n",
            expected: "t.evemu:2: error: unexpected '07' at the end of the 'I:' line"),
        Malformed(
            text: "hello\n",
            expected: "t.evemu:1: error: unexpected line 'hello': expected a line such as 'N:', 'I:', 'B:' or 'E:'"),
        evemu("X: 1\n", "4: error: unknown line type 'X:'"),
        evemu("N: Other\n", "4: error: second 'N:' line: an evemu recording describes one device"),
        evemu("I: 0003 3553 b001 0110\n", "4: error: second 'I:' line: an evemu recording describes one device"),
        evemu(
            "E: 0.000000 0001 0030 1\nB: 01 00 00 00 00 00 00 00 00\n",
            "5: error: device description line 'B:' after the events"),
        evemu(
            "E: 0.5 0001 0030 1\n",
            "4: error: invalid event timestamp '0.5': expected seconds and six-digit microseconds such as 12.000250"),
        evemu(
            "E: 1.0000001 0001 0030 1\n",
            "4: error: invalid event timestamp '1.0000001': expected seconds and six-digit microseconds such as 12.000250"),
        evemu(
            "E: -1.000000 0001 0030 1\n",
            "4: error: invalid event timestamp '-1.000000': expected seconds and six-digit microseconds such as 12.000250"),
        evemu(
            "E: 99999999999999999999.000000 0001 0030 1\n",
            "4: error: event timestamp '99999999999999999999.000000' is too large"),
        evemu(
            "E:\nE: 0.000000 0000 0000 0\n",
            "4: error: event line without fields: expected 'E: <sec>.<usec> <type> <code> <value>'"),
        evemu("E: 0.000000 0001 0030\nE: 0.000000 0000 0000 0\n", "4: error: missing event value"),
        evemu("E: 0.000000 0001 0030 1\nN: Other\n", "5: error: device description line 'N:' after the events"),
        evemu("E: 0.000000 0001 0030 1\nX: 1\n", "5: error: unknown line type 'X:'"),
        evemu(
            "E: 0.000000 0001 0030 1 2\n",
            "4: error: unexpected '2' at the end of the event line ('E: <sec>.<usec> <type> <code> <value>')"),
        evemu("E: 0.000000 0001 0030 1x\n", "4: error: invalid event value '1x': expected a decimal number"),
        evemu("E: 0.000000 0001 0030 -\n", "4: error: invalid event value '-': expected a decimal number"),
        evemu("E: 0.000000 0001 0030 2147483648\n", "4: error: event value '2147483648' does not fit in 32 bits"),
        evemu("E: 0.000000 0001 0030 -2147483649\n", "4: error: event value '-2147483649' does not fit in 32 bits"),
        evemu(
            "E: 0.000000 0001 0030 99999999999999999999999\n",
            "4: error: event value '99999999999999999999999' does not fit in 32 bits"),
        evemu("E: 0.000000 0g01 0030 1\n", "4: error: invalid event type '0g01': expected a hexadecimal number"),
        evemu("E: 0.000000 10000 0030 1\n", "4: error: event type '10000' is out of range (at most 0xffff)"),
        evemu("E: 0.000000 0020 0000 1\n", "4: error: unknown event type 0x20"),
        evemu("E: 0.000000 0001 0300 1\n", "4: error: code 0x300 is above the maximum 0x2ff for EV_KEY (0x01)"),
        evemu("E: 0.000000 0002 0010 1\n", "4: error: code 0x10 is above the maximum 0x0f for EV_REL (0x02)"),
        evemu("B: 01 00 00\n", "4: error: missing bitmask byte"),
        evemu("B: 01 00 00 00 00 00 00 00 100\n", "4: error: bitmask byte '100' is out of range (at most 0xff)"),
        evemu("B: 01 00 00 00 00 00 00 00 00 00\n", "4: error: unexpected '00' at the end of the 'B:' line (a type and 8 bytes)"),
        evemu("B: 20 00 00 00 00 00 00 00 00\n", "4: error: unknown event type 0x20 in 'B:' line"),
        evemu("B: 02 00 00 01 00 00 00 00 00\n", "4: error: code 0x10 is above the maximum 0x0f for EV_REL (0x02)"),
        evemu(
            String(repeating: "B: 01 00 00 00 00 00 00 00 00\n", count: 12) + "B: 01 01 00 00 00 00 00 00 00\n",
            "16: error: code 0x300 is above the maximum 0x2ff for EV_KEY (0x01)"),
        evemu("P: 00 00\n", "4: error: missing property byte"),
        evemu(
            "A: 40 0 1 0 0 0\n", "4: error: code 0x40 is above the maximum 0x3f for " + EventLimits.describe(type: EventType.abs)),
        evemu("A: 00 0 1 0\n", "4: error: missing axis flat"),
        evemu("A: 00 0 4294967296 0 0 0\n", "4: error: axis maximum '4294967296' does not fit in 32 bits"),
        evemu("L: 00\n", "4: error: missing state"),
        evemu(
            "S: 11 1\n",
            "4: error: code 0x11 is above the maximum 0x10 for "
                + EventLimits.describe(type: EventType.sw)),
    ])
func evemuErrors(_ input: Malformed) {
    let error = #expect(throws: InputRecordingError.self) { try EvemuRecording.parse(input.text, file: "t.evemu") }
    #expect(error?.description == input.expected)
}

/// A small valid libinput recording; line numbers matter to the cases below.
private let libinputLines = [
    "version: 1",  // 1
    "ndevices: 1",  // 2
    "devices:",  // 3
    "- node: /dev/input/event3",  // 4
    "  evdev:",  // 5
    "    name: \"Pedal\"",  // 6
    "    id: [3, 13651, 45057, 272]",  // 7
    "    codes:",  // 8
    "      1: [30, 48]",  // 9
    "  udev:",  // 10
    "    properties:",  // 11
    "    - ID_INPUT=1",  // 12
    "  events:",  // 13
    "  - evdev:",  // 14
    "    - [0, 0, 1, 48, 1]",  // 15
    "    - [0, 0, 0, 0, 0]",  // 16
]

private func libinput(_ line: Int, _ replacement: String, _ expected: String) -> Malformed {
    var lines = libinputLines
    lines[line - 1] = replacement
    return Malformed(text: lines.joined(separator: "\n") + "\n", expected: "t.yml:" + expected)
}

@Test func aStarThatIsNoAliasIsRead() throws {
    // libyaml reads an alias only where a token starts: a name or a comment may hold a '*' after a blank.
    var lines = libinputLines
    lines[5] = "    name: \"Foot * Switch\"  # a * in a comment"
    let device = try LibinputRecording.parse(lines.joined(separator: "\n"), file: "t.yml").devices[0]
    #expect(device.identity.name == "Foot * Switch")
}

@Test func libinputBaseIsValid() throws {
    let device = try LibinputRecording.parse(libinputLines.joined(separator: "\n"), file: "t.yml").devices[0]
    #expect(device.identity.name == "Pedal")
    #expect(device.identity.udev == ["ID_INPUT": "1"])
    #expect(device.events.count == 2)
}

@Test(
    "RecordingParser libinput errors",
    arguments: [
        Malformed(text: "", expected: "t.yml:1: error: empty recording: expected 'version: 1' and 'devices:'"),
        Malformed(
            text: "# comment\n- a\n- b\n",
            expected: "t.yml:2: error: expected a YAML mapping with 'version' and 'devices' keys at the top level"),
        Malformed(text: "ndevices: 0\ndevices: []\n", expected: "t.yml:1: error: missing 'version' key: expected 'version: 1'"),
        Malformed(text: "version: 1\n", expected: "t.yml:1: error: missing 'devices' key: expected a list of recorded devices"),
        libinput(1, "version: 2", "1: error: unsupported libinput record version 2 (expected 1)"),
        libinput(1, "version: one", "1: error: version: expected a decimal number, found 'one'"),
        libinput(2, "ndevices: 0", "2: error: ndevices is 0 but 'devices' lists 1"),
        libinput(2, "ndevices: -1", "2: error: ndevices -1 is out of range (0...2147483647)"),
        Malformed(text: "version: 1\ndevices: 5\n", expected: "t.yml:2: error: devices: expected a list of recorded devices"),
        libinput(5, "  evdevs:", "4: error: devices[0]: missing 'evdev' key"),
        libinput(6, "    nam: \"Pedal\"", "6: error: devices[0].evdev: missing 'name' key"),
        libinput(6, "    name: [1]", "6: error: devices[0].evdev.name: expected the device name"),
        libinput(
            7, "    id: [3, 13651, 45057]",
            "7: error: devices[0].evdev.id: expected a list of 4 numbers [bus, vendor, product, version]"),
        libinput(7, "    id: [3, 70000, 45057, 272]", "7: error: devices[0].evdev.id vendor 70000 is out of range (0...65535)"),
        libinput(7, "    id: [-3, 1, 2, 3]", "7: error: devices[0].evdev.id bus -3 is out of range (0...65535)"),
        libinput(7, "    id: [0x3, 1, 2, 3]", "7: error: devices[0].evdev.id bus: expected a decimal number, found '0x3'"),
        libinput(
            7, "    id: [3, 99999999999999999999999, 2, 3]",
            "7: error: devices[0].evdev.id vendor 99999999999999999999999 is out of range (0...65535)"),
        libinput(
            9, "      1: [30, 768]", "9: error: devices[0].evdev.codes.1: code 0x300 is above the maximum 0x2ff for EV_KEY (0x01)"
        ),
        libinput(9, "      1: [30, -1]", "9: error: devices[0].evdev.codes.1 code -1 is out of range (0...65535)"),
        libinput(9, "      32: [1]", "9: error: devices[0].evdev.codes event type 32 is out of range (0...31)"),
        libinput(9, "      1: 30", "9: error: devices[0].evdev.codes.1: expected a list of event codes, found '30'"),
        libinput(12, "    - ID_INPUT", "12: error: devices[0].udev.properties: expected 'KEY=value', found 'ID_INPUT'"),
        libinput(14, "  - 5", "14: error: devices[0].events[0]: expected an event frame such as '- evdev: [...]'"),
        libinput(15, "    - [0, 0, 1, 48]", "15: error: devices[0].events[0].evdev[0]: expected [sec, usec, type, code, value]"),
        libinput(15, "    - [0, -1, 1, 48, 1]", "15: error: devices[0].events[0].evdev[0] usec -1 is out of range (0...999999)"),
        libinput(
            15, "    - [0, 1000000, 1, 48, 1]",
            "15: error: devices[0].events[0].evdev[0] usec 1000000 is out of range (0...999999)"),
        libinput(
            15, "    - [-1, 0, 1, 48, 1]", "15: error: devices[0].events[0].evdev[0] sec -1 is out of range (0...9223372036853)"),
        libinput(
            15, "    - [0, 0, 1, 768, 1]",
            "15: error: devices[0].events[0].evdev[0]: code 0x300 is above the maximum 0x2ff for EV_KEY (0x01)"),
        libinput(15, "    - [0, 0, 32, 0, 1]", "15: error: devices[0].events[0].evdev[0]: unknown event type 0x20"),
        libinput(
            15, "    - [0, 0, 1, 48, 2147483648]",
            "15: error: devices[0].events[0].evdev[0] value 2147483648 is out of range (-2147483648...2147483647)"),
        libinput(
            15, "    - [0, 0, 1, 48, 1.5]",
            "15: error: devices[0].events[0].evdev[0] value: expected a decimal number, found '1.5'"),
        libinput(
            15, "    - [0, 0, 1, 48, [1]]", "15: error: devices[0].events[0].evdev[0] value: expected a number, found a list"),
        libinput(16, "    - *x", "16: error: YAML aliases ('*name') are not supported in libinput recordings"),
        libinput(2, "ndevices: 1\nndevices: 1", "2: error: duplicate key 'ndevices'"),
    ])
func libinputErrors(_ input: Malformed) {
    let error = #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(input.text, file: "t.yml") }
    #expect(error?.description == input.expected)
}

@Test("RecordingParser invalid YAML reports its line")
func libinputInvalidYAML() {
    let cases: [(String, Int)] = [
        ("version: 1\ndevices: [\n  {a: 1\n", 4),
        ("version: 1\n  bad: indentation\n", 2),
        ("version: 1\ndevices:\n- node: \"unterminated\n", 4),
        ("version: 1\ndevices: []\nx: \u{1}\n", 3),
    ]
    for (text, line) in cases {
        let error = #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(text, file: "y.yml") }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.hasPrefix("invalid YAML: ") == true, "\(String(describing: error))")
    }
}

@Test("RecordingParser hostile YAML fails cleanly")
func libinputHostileYAML() {
    let laughs =
        "version: 1\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        + "devices: [{evdev: {name: n, id: [1, 2, 3, 4]}, events: [{evdev: [*b, *b]}]}]\n"
    let error = #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(laughs, file: "l.yml") }
    #expect(error?.description == "l.yml:3: error: YAML aliases ('*name') are not supported in libinput recordings")

    let deep = "version: 1\ndevices: " + String(repeating: "[", count: 999) + String(repeating: "]", count: 999) + "\n"
    #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(deep, file: "d.yml") }
    let deeper = "version: 1\ndevices: " + String(repeating: "[", count: 5000) + "\n"
    #expect(throws: InputRecordingError.self) { try LibinputRecording.parse(deeper, file: "d.yml") }
}

@Test("RecordingParser evemu event-type bitmask (B: 00) lists types, not codes")
func evemuTypeBitmask() throws {
    let keyboard = """
        N: Keyboard
        I: 0003 046d c31c 0110
        B: 00 13 00 12 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 04 00
        E: 0.000001 0001 0072 1

        """
    let device = try #require(try EvemuRecording.parse(keyboard, file: "k.evemu").devices.first)
    #expect(device.identity.codes == [EventCode(type: EventType.key, code: 114)])
    let beyond = keyboard.replacingOccurrences(of: "B: 00 13 00 12 00 00", with: "B: 00 13 00 12 00 01")
    let error = #expect(throws: InputRecordingError.self) { try EvemuRecording.parse(beyond, file: "k.evemu") }
    #expect(error?.description == "k.evemu:3: error: event type 0x20 in 'B: 00' is above EV_MAX (0x1f)")
}

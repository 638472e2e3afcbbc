import Foundation
import Testing

@testable import SlateCore

@Suite struct ProfileLoaderTests {
    static let profilesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("profiles")

    static var shipped: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: profilesFolder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
    }

    func errors(_ yaml: String) -> [String] {
        switch ProfileLoader.load(yaml, file: "rig.yaml") {
        case .success: return []
        case .failure(let errors): return errors.diagnostics.map(\.description)
        }
    }

    func load(_ yaml: String) throws -> Profile {
        try ProfileLoader.load(yaml, file: "rig.yaml").get()
    }

    @Test func shippedProfilesAreValid() throws {
        #expect(Self.shipped.count >= 4)
        for name in Self.shipped {
            let text = try String(contentsOf: Self.profilesFolder.appendingPathComponent(name), encoding: .utf8)
            let result = ProfileLoader.load(text, file: name)
            if case .failure(let errors) = result { Issue.record("\(errors)") }
        }
    }

    @Test func theTrashKeepsDeletedTakesADayUnlessTheProfileSays() throws {
        let base = "inputs: {k: {match: {name: x}, bind: {KEY_A: primary}}}\ncapture: {primary: {click: take.toggle}}\n"
        let plain = try load(base)
        #expect(plain.camera.trashHours == 24 && !plain.camera.cleanUp)
        let set = try load(base + "camera: {trash-hours: 0, clean-up: true}\n")
        #expect(set.camera.trashHours == 0 && set.camera.cleanUp)
        #expect(try load(base + "camera: {trash-hours: 720}\n").camera.trashHours == 720)
        #expect(
            errors(base + "camera: {trash-hours: 721}\n") == [
                "rig.yaml:3:23: error: trash-hours must be a number from 0 to 720, not '721'"
            ])
    }

    @Test func footswitchProfileMatchesTheWholeFamily() throws {
        let text = try String(
            contentsOf: Self.profilesFolder.appendingPathComponent("pcsensor-footswitch.yaml"), encoding: .utf8)
        let profile = try ProfileLoader.load(text, file: "pcsensor-footswitch.yaml").get()
        for (vendor, product) in [(0x3553, 0xb001), (0x1a86, 0xe026), (0x0c45, 0x7403), (0x0c45, 0x7404), (0x413d, 0x2107)] {
            let device = DeviceIdentity(name: "FootSwitch", bus: Bus.usb, vendor: UInt16(vendor), product: UInt16(product))
            #expect(profile.inputIndex(matching: device) == 0)
        }
        let other = DeviceIdentity(name: "FootSwitch", bus: Bus.usb, vendor: 0x3553, product: 0xb002)
        #expect(profile.inputIndex(matching: other) == nil)
        #expect(profile.explainMatch(other)[0].reasons.first == "product 0xb002 is not 0xb001")
        #expect(profile.inputs[0].keys.map(\.code) == [48, 30, 46])
        #expect(profile.inputs[0].keys[2].binding == .actions([Step(.takeDeleteLast)]))
    }

    @Test func volumeKeysAreGrabbedWhileActiveByDefault() throws {
        let profile = try load(
            """
            inputs:
              a: {match: {name: x}, bind: {KEY_VOLUMEUP: primary}}
              b: {match: {name: y}, bind: {KEY_B: primary}}
            capture: {primary: {click: take.toggle}}
            """)
        #expect(profile.inputs[0].effectiveGrab == .whenActive)
        #expect(profile.inputs[1].effectiveGrab == .never)
    }

    @Test func aCloneIsNeededToGrabADeviceWithCodesTheInputLeavesAlone() throws {
        let profile = try load(
            """
            inputs:
              keys: {match: {name: x}, bind: {KEY_VOLUMEUP: primary, REL_DIAL: zoom.step}}
              pedal: {match: {name: y}, bind: {KEY_B: primary}}
            capture: {primary: {click: take.toggle}}
            """)
        let code = { (name: String) in EventCodes.code(named: name)! }
        let keys = profile.inputs[0]
        #expect(!keys.needsClone(for: [code("KEY_VOLUMEUP"), code("REL_DIAL"), code("MSC_SCAN"), code("LED_NUML")]))
        #expect(keys.needsClone(for: [code("KEY_VOLUMEUP"), code("KEY_VOLUMEDOWN")]))
        #expect(keys.needsClone(for: [code("KEY_VOLUMEUP"), code("REL_WHEEL")]))
        #expect(keys.needsClone(for: [code("KEY_VOLUMEUP"), code("SW_LID")]))
        #expect(!profile.inputs[1].needsClone(for: [code("KEY_A"), code("KEY_B")]), "an input that never grabs")
    }

    @Test func reportsEveryErrorWithItsPosition() {
        let yaml = """
            inputs:
              pedal:
                match: {vendor: 0x3553, colour: red}
                bind:
                  KEY_B: primary
                  KEY_NOPE: secondary
                  BTN_0: take.explode
                  BTN_MISC: primary
                  REL_DIAL: secondary
                  ABS_X: zoom.step
                grub: always
            capture:
              hold-threshold: soon
              primary: {click: take.toggle, release: take.stop, tap: take.start}
            macros:
              a: [b]
              b: [take.start, a]
              take.start: [wait 1s]
            sounds:
              feedback: maybe
            """
        #expect(
            errors(yaml) == [
                "rig.yaml:3:29: error: unknown key 'colour' in match of input 'pedal' (expected name, bus, vendor, product, phys, uniq, has or udev)",
                "rig.yaml:6:7: error: unknown event code 'KEY_NOPE'",
                "rig.yaml:7:14: error: unknown action or macro 'take.explode' in BTN_0",
                "rig.yaml:8:7: error: BTN_MISC is bound twice: BTN_0 is already bound (line 7)",
                "rig.yaml:9:17: error: REL_DIAL is an axis, not a button: bind it to an action such as zoom.step",
                "rig.yaml:10:7: error: ABS_X cannot be bound: only buttons (EV_KEY) and axes (EV_REL) can",
                "rig.yaml:11:5: error: unknown key 'grub' in input 'pedal' (expected match, bind, remote, grab or debounce)",
                "rig.yaml:13:19: error: hold-threshold must be a duration such as 500ms or 1.5s, not 'soon'",
                "rig.yaml:14:33: error: capture.primary has a release handler but no hold handler",
                "rig.yaml:14:53: error: unknown key 'tap' in capture.primary (expected click, hold, release or double)",
                "rig.yaml:16:7: error: macro 'a' is recursive: a -> b -> a",
                "rig.yaml:17:19: error: macro 'b' is recursive: b -> a -> b",
                "rig.yaml:18:3: error: macro 'take.start' has the name of an action",
                "rig.yaml:20:13: error: feedback must be true or false, not 'maybe'",
            ])
    }

    @Test func numbersOutOfRangeAreErrorsWithTheirPosition() {
        let yaml = """
            inputs:
              p:
                match: {name: x}
                bind: {KEY_A: zoom.step 1e300, KEY_B: zoom.step -101, KEY_C: zoom.step 100, REL_DIAL: zoom.step 1e-300}
            controls:
              - {type: slider, name: S, target: "recorder:fps", min: -1e300, max: 1e300, step: 1}
            """
        #expect(
            errors(yaml) == [
                "rig.yaml:4:19: error: zoom.step must be a number from -100 to 100, not '1e300'",
                "rig.yaml:4:43: error: zoom.step must be a number from -100 to 100, not '-101'",
                "rig.yaml:6:58: error: min must be a number from -1000000000 to 1000000000, not '-1e300'",
            ])
    }

    @Test func theLargestZoomStepOnTheLargestWheelTurnDoesNotTrap() throws {
        let profile = try load("inputs:\n  knob: {match: {name: Knob}, bind: {REL_WHEEL: zoom.step 100}}")
        var rig = RigMachine(profile: profile)
        guard case .bound(let source, _) = rig.attach(DeviceIdentity(name: "Knob")) else {
            Issue.record("the knob did not bind")
            return
        }
        var effects: [RigEffect] = []
        for value in [Int32.max, Int32.min] {
            let time = Instant(microseconds: 1000)
            rig.handle(
                .event(InputEvent(time: time, type: EventType.rel, code: 8, value: value), from: source, resync: false),
                into: &effects)
            rig.handle(
                .event(InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0), from: source, resync: false),
                into: &effects)
        }
        #expect(rig.book.zoom == 1)
        let reports = effects.compactMap { if case .report(let report) = $0 { report } else { nil } }
        let text = reports.map { ReportFormat(origin: Instant(microseconds: 0)).json($0) }.joined()
        #expect(text.contains("\"value\":214748364700") && text.contains("\"value\":-214748364800"), "\(text)")
    }

    @Test func emptyRigs() {
        #expect(errors("") == ["rig.yaml:1:1: error: the profile is empty: a rig needs inputs"])
        #expect(errors("capture: {}") == ["rig.yaml:1:1: error: the rig has no inputs: add an 'inputs' section"])
        #expect(errors("inputs: {}") == ["rig.yaml:1:9: error: the rig has no inputs"])
        #expect(
            errors("inputs:\n  pedal: {match: {name: x}}")
                == ["rig.yaml:2:10: error: input 'pedal' binds nothing: add a 'bind' section"])
    }

    @Test func yamlSyntaxAndDuplicateKeys() {
        #expect(errors("inputs: [a, b") == ["rig.yaml:2:1: error: YAML: did not find expected ',' or ']'"])
        #expect(
            errors("inputs:\n  p:\n    match: {name: x}\n    bind: {KEY_B: primary, KEY_B: secondary}\n")
                == ["rig.yaml:4:12: error: 'KEY_B' given twice in one mapping"])
    }

    @Test func aliasesToAliasesAndDeepNestingAreRefusedWithTheirPlace() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        #expect(
            errors(lines.joined(separator: "\n"))
                == ["rig.yaml:5:45: error: more than 100000 nodes (an alias counts as a copy of what it names)"])
        let deep = "inputs: " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(errors(deep) == ["rig.yaml:1:72: error: nested more than 64 levels deep"])
        let long =
            "description: &d " + String(repeating: "z", count: 1000) + "\nmacros: {m: ["
            + Array(repeating: "*d", count: 5000).joined(separator: ", ") + "]}\n"
        #expect(
            errors(long)
                == ["rig.yaml:2:16786: error: more than 4194304 bytes of text (an alias counts as a copy of what it names)"])
    }

    @Test func roleWithoutHandlers() {
        #expect(
            errors("inputs:\n  p: {match: {name: x}, bind: {KEY_B: secondary}}\ncapture: {secondary: {}}")
                == ["rig.yaml:2:39: error: KEY_B is bound to secondary, but capture has no primary handlers"])
    }

    @Test func actionArguments() {
        let yaml = """
            inputs:
              p:
                match: {name: x}
                bind:
                  KEY_A: exec notify-send hi
                  KEY_B: {exec: []}
                  KEY_C: wait forever
                  KEY_D: zoom.set 9
                  KEY_E: sound trumpet
                  KEY_F: take.toggle now
                  KEY_G: [zoom.step 0.5, {zoom.set: 2}, wait 20ms, sound shutter, {exec: [/bin/true]}]
            """
        #expect(
            errors(yaml) == [
                "rig.yaml:5:14: error: exec takes a list, never a shell string: exec: [program, argument, ...]",
                "rig.yaml:6:21: error: exec needs a program",
                "rig.yaml:7:14: error: wait must be a duration such as 500ms or 1.5s, not 'forever'",
                "rig.yaml:8:14: error: zoom.set must be within 1 and 6, not 9.0",
                "rig.yaml:9:14: error: unknown sound 'trumpet' (built in: shutter, begin-video-recording or end-video-recording; others need an entry in sounds.files)",
                "rig.yaml:10:14: error: take.toggle takes no argument",
            ])
        let fixed = yaml.split(separator: "\n").filter {
            !$0.contains("KEY_A") && !$0.contains("KEY_B") && !$0.contains("KEY_C") && !$0.contains("KEY_D")
                && !$0.contains("KEY_E") && !$0.contains("KEY_F")
        }
        let profile = try? load(fixed.joined(separator: "\n"))
        #expect(
            profile?.inputs[0].keys[0].binding
                == .actions([
                    Step(.zoomStep(0.5)), Step(.zoomSet(2)), Step(.wait(.milliseconds(20))), Step(.sound("shutter")),
                    Step(.exec(["/bin/true"])),
                ]))
    }

    @Test func matchRules() throws {
        let profile = try load(
            """
            inputs:
              h:
                match:
                  name: "* (AVRCP)"
                  bus: bluetooth
                  phys: "00:1a:7d:*"
                  has: [KEY_PLAYCD]
                  udev: {ID_INPUT_KEY: "1"}
                bind: {KEY_PLAYCD: primary}
            capture: {primary: {click: take.toggle}}
            """)
        var device = DeviceIdentity(
            name: "WH-1000XM4 (AVRCP)", bus: Bus.bluetooth, phys: "00:1a:7d:da:71:13",
            codes: [EventCode(type: 1, code: 200)], udev: ["ID_INPUT_KEY": "1"])
        #expect(profile.inputIndex(matching: device) == 0)
        device.udev = [:]
        #expect(profile.explainMatch(device)[0].reasons == ["udev property ID_INPUT_KEY is not set"])
        device.codes = []
        #expect(profile.explainMatch(device)[0].reasons == ["the device has no KEY_PLAYCD"])
        device.bus = Bus.usb
        #expect(profile.explainMatch(device)[0].reasons == ["bus usb is not bluetooth"])
        device.name = "Headset"
        #expect(profile.explainMatch(device)[0].reasons == ["name 'Headset' does not match '* (AVRCP)'"])
    }

    @Test func oneHeadsetAmongSeveralByItsUniq() throws {
        let profile = try load(
            """
            inputs:
              h:
                match: {bus: bluetooth, uniq: "70:bf:92:*"}
                bind: {KEY_PLAYCD: primary}
            capture: {primary: {click: take.toggle}}
            """)
        var device = DeviceIdentity(
            name: "Jabra Elite (AVRCP)", bus: Bus.bluetooth, phys: "00:1a:7d:da:71:13", uniq: "70:bf:92:01:02:03")
        #expect(profile.inputIndex(matching: device) == 0)
        #expect(profile.inputs[0].match[0].summary == #"bus bluetooth, uniq "70:bf:92:*""#)
        device.uniq = ""
        #expect(profile.explainMatch(device)[0].reasons == ["uniq '' does not match '70:bf:92:*'"])
    }

    @Test func aBluetoothNodesAddresses() throws {
        let avrcp = DeviceIdentity(name: "Slate Headset (AVRCP)", bus: Bus.bluetooth, phys: "00:aa:01:00:00:23")
        let addresses = try #require(BluetoothAddresses(avrcp))
        #expect(addresses.device == nil && addresses.adapter == "00:AA:01:00:00:23")
        #expect(addresses.summary == "device address not given (empty uniq), adapter 00:AA:01:00:00:23 (phys)")
        let hid = DeviceIdentity(name: "Remote", bus: Bus.bluetooth, phys: "00:aa:01:00:00:23/0", uniq: "70:BF:92:01:02:03")
        #expect(BluetoothAddresses(hid)?.summary == "device 70:BF:92:01:02:03 (uniq), adapter 00:AA:01:00:00:23 (phys)")
        #expect(BluetoothAddresses(DeviceIdentity(name: "Pedal", bus: Bus.usb, phys: "usb-0000:00:14.0-1/input0")) == nil)
        #expect(BluetoothAddresses.address(in: "zz:aa:01:00:00:23") == nil)
    }

    @Test func exportNamesAreATemplateOfTheRigTheDateAndTheTime() throws {
        let rig = """
            inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}
            capture: {primary: {click: take.toggle}}
            camera: {export-name: "interview-{rig}-{time}"}

            """
        #expect(try load(rig).camera.exportName.template == "interview-{rig}-{time}")
        #expect(
            try load(rig.replacingOccurrences(of: "camera: {export-name: \"interview-{rig}-{time}\"}", with: "")).camera
                .exportName == .standard)
        #expect(
            errors(rig.replacingOccurrences(of: "-{time}", with: "/{time}")) == [
                "rig.yaml:3:23: error: export-name 'interview-{rig}/{time}' has '/'; it takes letters, digits, '-', '_' and '.'"
            ])
    }

    /// Film, PAL and NTSC rates, and controls over them: a slider lists offered rates, a picker's titles its two.
    @Test func theCameraTakesAnyOfferedRate() throws {
        let rig = """
            inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}
            capture: {primary: {click: take.toggle}}
            camera: {fps: 29.97}
            controls:
              - {type: picker, name: Rate, target: "recorder:fps", titles: [Normal, Slow motion]}

            """
        #expect(try load(rig).camera.fps == .ntsc(30))
        #expect(try load(rig.replacingOccurrences(of: "29.97", with: "25")).camera.fps == 25)
        let slider = rig.replacingOccurrences(
            of: "{type: picker, name: Rate, target: \"recorder:fps\", titles: [Normal, Slow motion]}",
            with: "{type: slider, name: Rate, target: \"recorder:fps\", values: [29.97, 59.94]}")
        #expect(errors(slider) == [])
        #expect(
            errors(slider.replacingOccurrences(of: "59.94]", with: "59.9]")) == [
                "rig.yaml:5:40: error: recorder:fps takes the values 23.976, 24, 25, 29.97, 30, 48, 50, 59.94 or 60"
            ])
        // 23.976 has no partner among the offered rates: its picker has one choice.
        #expect(
            errors(rig.replacingOccurrences(of: "29.97", with: "23.976")) == [
                "rig.yaml:5:40: error: recorder:fps has 1 choice, but titles lists 2"
            ])
    }

    @Test func cameraControlsAndSoundsValidate() {
        let good = """
            inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}
            capture: {primary: {click: take.toggle}}
            camera:
              back: [/dev/v4l/by-id/usb-046d_*-video-index0, testpattern]
              front: "card:Integrated Camera"
              fps: 30
              max-size: 1920x1080
              codec: [hevc, h264]
              orientation: 90
              mirror: true
              preroll: 1s
              filter: mono
              start: first-input
            controls:
              - {type: zoom}
              - {type: exposure-bias}
              - {type: slider, name: Frame rate, target: "recorder:fps", values: [30, 60], format: "%@ fps"}
              - {type: slider, name: Brightness, target: "v4l2:brightness", min: 0, max: 255, step: 1}
              - {type: picker, name: Filter, target: "recorder:filter", titles: [None, Mono, Sepia], enabled: false}
            sounds:
              device: "plughw:0,0"
              files: {shutter: /tmp/click.wav}
            """
        #expect(errors(good) == [])
        let bad = """
            inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}
            capture: {primary: {click: take.toggle}}
            camera:
              fps: 29.976
              max-size: big
              codec: [vp9]
              lens: wide
            controls:
              - {type: slider, name: B, target: "v4l2:brightness", min: 5, max: 1}
              - {type: slider, name: C, target: "v4l2:contrast", min: 0, max: 1, step: 0}
              - {type: picker, name: F, target: "recorder:filter", titles: []}
              - {type: dial}
            """
        #expect(
            errors(bad) == [
                "rig.yaml:4:8: error: fps must be 23.976, 24, 25, 29.97, 30, 48, 50, 59.94 or 60, not '29.976'",
                "rig.yaml:5:13: error: max-size must be WIDTHxHEIGHT such as 1920x1080, not 'big'",
                "rig.yaml:6:10: error: unknown codec 'vp9' (expected hevc or h264)",
                "rig.yaml:7:3: error: unknown key 'lens' in camera (expected back, front, position, fps, max-size, codec, passthrough, orientation, mirror, preroll, work, output, takes-access, filter, start, wait-for-camera, settings, trash-hours, clean-up, export-name, proxy or memory-limit)",
                "rig.yaml:9:69: error: max must be greater than min",
                "rig.yaml:10:76: error: step must be greater than 0",
                "rig.yaml:11:64: error: titles lists nothing",
                "rig.yaml:12:12: error: type must be zoom, exposure-bias, slider or picker, not 'dial'",
            ])
    }

    /// `camera.proxy`: a height, `off`, or a mapping; each value refused with its reason at its place.
    @Test func proxiesAreAHeightOrAMappingAndRefusedAtTheirEdges() throws {
        func camera(_ proxy: String) -> String {
            "inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}\ncapture: {primary: {click: take.toggle}}\n"
                + "camera:\n  proxy: \(proxy)\n"
        }
        func spec(_ proxy: String) throws -> ProxySpec? {
            try ProfileLoader.load(camera(proxy), file: "rig.yaml").get().camera.proxy
        }
        #expect(try spec("540p") == ProxySpec(height: 540))
        #expect(try spec("off") == nil)
        #expect(
            try spec("{size: 720p, bit-rate: 4M, naming: premiere}")
                == ProxySpec(height: 720, bitRate: 4_000_000, naming: .premiere))
        #expect(try spec("{bit-rate: 200k}") == ProxySpec(height: 540, bitRate: 200_000))
        #expect(try spec("{bit-rate: 50000000}")?.bitRate == 50_000_000)
        #expect(
            errors(camera("1080p")) == ["rig.yaml:4:10: error: proxy must be off, 360p, 480p, 540p or 720p, not '1080p'"])
        #expect(
            errors(camera("{bit-rate: 199k}")) == [
                "rig.yaml:4:21: error: bit-rate must be 200k to 50M bits a second (such as 2M or 800k), not '199k'"
            ])
        #expect(
            errors(camera("{bit-rate: 51M}")) == [
                "rig.yaml:4:21: error: bit-rate must be 200k to 50M bits a second (such as 2M or 800k), not '51M'"
            ])
        #expect(
            errors(camera("{naming: avid}")) == ["rig.yaml:4:19: error: naming must be resolve or premiere, not 'avid'"])
        #expect(
            errors(camera("{height: 540}")) == [
                "rig.yaml:4:11: error: unknown key 'height' in camera.proxy (expected size, bit-rate or naming)"
            ])
    }

    /// `camera.memory-limit`: megabytes a recording may take, 100 to 4096.
    @Test func theMemoryLimitIsMegabytesWithinItsRange() throws {
        let yaml = { (limit: String) in
            "inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}\ncapture: {primary: {click: take.toggle}}\n"
                + "camera:\n  memory-limit: \(limit)\n"
        }
        #expect(try ProfileLoader.load(yaml("256"), file: "rig.yaml").get().camera.memoryLimit == 256 << 20)
        #expect(try ProfileLoader.load(yaml("4096"), file: "rig.yaml").get().camera.memoryLimit == 4096 << 20)
        #expect(errors(yaml("99")) == ["rig.yaml:4:17: error: memory-limit must be a number from 100 to 4096, not '99'"])
    }

    @Test func controlErrorsNameTheirPlace() {
        let yaml = """
            inputs: {k: {match: {name: x}, bind: {BTN_0: control, REL_DIAL: control, KEY_A: control.set Nope 2, KEY_B: control.set Mains 70 Hz}}}
            controls:
              max: 3
              list:
                - {type: slider, name: A, target: "v4l2:brightness", format: "%d units"}
                - {type: slider, name: B, target: "v4l2:contrast", format: "%@ of %@"}
                - {type: picker, name: Mains, target: "recorder:fps", titles: [a, b, c]}
                - {type: slider, name: C, target: "recorder:camera"}
                - {type: slider, name: D, target: "camera:zoom"}
            """
        #expect(
            errors(yaml) == [
                "rig.yaml:1:81: error: control.set: no control is named 'Nope' (controls: A, B, Mains or C)",
                "rig.yaml:1:108: error: Mains has no item '70 Hz' (items: a, b or c)",
                "rig.yaml:5:66: error: format may hold only %@ and %%, not '%d' at position 1",
                "rig.yaml:6:64: error: format needs exactly one %@, not 2 (at positions 1, 7)",
                "rig.yaml:7:43: error: recorder:fps has 2 choices, but titles lists 3",
                "rig.yaml:8:7: error: a rig has at most 3 controls (controls.max)",
                "rig.yaml:8:39: error: recorder:camera is a choice: drive it with a picker",
                "rig.yaml:9:39: error: unknown target 'camera:zoom' (expected v4l2:NAME such as v4l2:brightness, or recorder:zoom, recorder:fps, recorder:filter, recorder:camera, recorder:preroll or prompter:speed)",
            ])
        let without = "inputs: {k: {match: {name: x}, bind: {BTN_0: control, KEY_A: control.next}}}"
        #expect(
            errors(without) == [
                "rig.yaml:1:46: error: control binds the capture controls, but the profile has no controls section",
                "rig.yaml:1:62: error: control.next needs a controls section",
            ])
    }

    @Test func tooManyControls() {
        let controls = (1...7).map { "  - {type: slider, name: Level \($0), target: 'recorder:preroll'}" }.joined(separator: "\n")
        let yaml =
            "inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}\ncapture: {primary: {click: take.toggle}}\ncontrols:\n\(controls)"
        #expect(errors(yaml) == ["rig.yaml:10:5: error: a rig has at most 6 controls (controls.max)"])
    }

    @Test func oneZoomAndOneExposureBiasSliderAsApplesSystemSliders() {
        let controls = ["zoom", "exposure-bias", "zoom", "exposure-bias"].enumerated()
            .map { "  - {type: \($1), name: C\($0)}" }.joined(separator: "\n")
        let yaml =
            "inputs: {p: {match: {name: x}, bind: {KEY_B: primary}}}\ncapture: {primary: {click: take.toggle}}\ncontrols:\n\(controls)"
        #expect(
            errors(yaml) == [
                "rig.yaml:6:5: error: a rig has one zoom control, as Apple's system slider: this one is a second (line 4)",
                "rig.yaml:7:5: error: a rig has one exposure-bias control, as Apple's system slider: this one is a second (line 5)",
            ])
    }

    @Test func durations() {
        #expect(DurationText.parse("500ms") == .milliseconds(500))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(DurationText.parse("250 us") == .microseconds(250))
        #expect(DurationText.parse("0.0000001s") == nil)
        #expect(DurationText.parse("-1s") == nil)
        #expect(DurationText.parse("1e3ms") == nil)
        #expect(DurationText.parse("s") == nil)
        #expect(DurationText.parse("99999999999s") == nil)
        #expect(DurationText.format(.milliseconds(1500)) == "1500ms")
        #expect(DurationText.format(.seconds(2)) == "2s")
    }

    @Test func globs() {
        #expect(Glob("* (AVRCP)").matches("WH-1000XM4 (AVRCP)"))
        #expect(!Glob("* (AVRCP)").matches("WH-1000XM4"))
        #expect(Glob("usb-*-event-[kj]bd").matches("usb-foo-event-kbd"))
        #expect(!Glob("usb-*-event-[!k]bd").matches("usb-foo-event-kbd"))
        #expect(Glob("a?c").matches("abc"))
        #expect(Glob("[a-c]x").matches("bx"))
        #expect(!Glob("[a-c]x").matches("dx"))
        #expect(Glob("[").matches("["))
        #expect(Glob("**").matches(""))
    }

    @Test func hostileInputFailsCleanly() {
        let inputs = [
            String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000),
            "inputs:\n  p:\n    match: {name: x}\n    bind: {KEY_B: primary}\n"
                + "capture:\n  primary:\n    click: &a [take.toggle, take.toggle]\n    hold: [*a, *a, *a]\n",
            "\u{0}\u{FFFD}inputs: {",
            "inputs:\n  p:\n    match: {vendor: 99999999999999999999999}\n    bind: {KEY_B: primary}",
            "macros:\n" + (0..<200).map { "  m\($0): [m\($0 + 1)]" }.joined(separator: "\n") + "\n  m200: [m0]",
        ]
        for input in inputs {
            if case .failure(let errors) = ProfileLoader.load(input, file: "hostile.yaml") {
                #expect(!errors.diagnostics.isEmpty)
                #expect(errors.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 })
            }
        }
    }
}

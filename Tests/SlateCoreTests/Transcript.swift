import Foundation
import SlateCore
import Testing

/// A golden transcript: a profile, devices, timed input, and the expected
/// output in `slate replay`'s text format (compared with runs of spaces folded).
///
///     [profile]
///     ...YAML...
///     [devices]
///     pedal: name=PCsensor FootSwitch; bus=usb; vendor=0x3553; product=0xb001; codes=KEY_A KEY_B
///     [events]
///     0.000 pedal KEY_B 1        (each event line is followed by a SYN_REPORT,
///     0.050 pedal KEY_A 0 +       unless it ends with + for more in its frame)
///     0.100 pedal SYN_DROPPED    (SYN_* lines are sent alone: SYN_REPORT 1 too)
///     0.200 pedal removed | 0.200 pedal added | 0.300 active off
///     [camera]                (the modelled camera's controls; without it, a typical webcam's)
///     Brightness: id=0x00980900; type=int; min=0; max=255; step=1; default=128; value=128; flags=inactive update
///     Power Line Frequency: type=menu; min=0; max=2; value=1; menu=0 Disabled, 1 50 Hz, 2 60 Hz
///     [events]
///     0.400 external gain_automatic 0   (another program sets a camera control)
///     0.500 request zoom.set 2          (an action asked over HTTP, as the text names it)
///     [options]
///     inactive
///     [script]                (the prompter's script; without it, 100 lines without cues)
///     # Scene one
///     [expect]                (with "0.100 camera set brightness 133" where a V4L2 control is set)
///     0.000 capture pedal KEY_B primary began
struct Transcript {
    var name: String
    var profile: String
    var devices: [(alias: String, identity: DeviceIdentity, late: Bool)] = []
    var items: [(time: Instant, item: Timeline.Item)] = []
    var inactive = false
    var expected: [String] = []
    var camera: [CameraControl]?
    var external: [(time: Instant, key: String, value: Int64)] = []
    var requests: [(time: Instant, action: String)] = []
    var script: String?

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(name: String, text: String) throws {
        self.name = name
        var profileLines: [String] = []
        var deviceLines: [String] = []
        var eventLines: [(Int, String)] = []
        for (section, number, line, content) in Self.lines(text) {
            switch section {
            case "profile": profileLines.append(line)
            case "devices" where !content.isEmpty: deviceLines.append(content)
            case "camera" where !content.isEmpty:
                camera = (camera ?? []) + [try Self.control(content, number: (camera ?? []).count)]
            case "events" where !content.isEmpty: eventLines.append((number, content))
            case "options" where content == "inactive": inactive = true
            case "expect" where !content.isEmpty: expected.append(Self.fold(content))
            case "script": script = (script.map { $0 + "\n" } ?? "") + line
            default: break
            }
        }
        profile = profileLines.joined(separator: "\n")
        for line in deviceLines { devices.append(try Self.device(line)) }
        for (number, line) in eventLines { try event(line, number: number) }
    }

    /// A transcript's lines, each with its section (a `[name]` line starts
    /// one), its number from 1, the line as written and its content (trimmed;
    /// empty for a blank line or a `#` comment).
    static func lines(_ text: String) -> [(section: String, number: Int, line: String, content: String)] {
        var section = ""
        var lines: [(String, Int, String, String)] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            let content = line.trimmingCharacters(in: .whitespaces)
            lines.append((section, index + 1, line, content.hasPrefix("#") ? "" : content))
        }
        return lines
    }

    /// Records an issue showing both when `actual` is not `expected`.
    static func compare(_ name: String, expected: [String], actual: [String]) {
        guard actual != expected else { return }
        Issue.record(
            """
            \(name): output differs
            expected:
            \(expected.joined(separator: "\n"))
            actual:
            \(actual.joined(separator: "\n"))
            """)
    }

    static func fold(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `Name: type=int; min=0; max=255; ...`; the id is made up from the position unless given.
    private static func control(_ line: String, number: Int) throws -> CameraControl {
        guard let colon = line.firstIndex(of: ":") else { throw ParseError(description: "camera line: \(line)") }
        var control = CameraControl(
            id: .init(0x00F0_0000 + UInt32(number)), name: String(line[..<colon]), kind: .integer, minimum: 0,
            maximum: 255, step: 1, defaultValue: 0, value: nil)
        for field in line[line.index(after: colon)...].split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let value = parts.count > 1 ? parts[1] : ""
            switch parts.first ?? "" {
            case "id": control.id = .init(UInt32(value.dropFirst(2), radix: 16) ?? 0)
            case "type":
                let kinds: [String: CameraControl.Kind] = [
                    "int": .integer, "bool": .boolean, "menu": .menu, "intmenu": .integerMenu,
                ]
                guard let kind = kinds[value] else { throw ParseError(description: "unknown control type \(value)") }
                control.kind = kind
            case "min": control.minimum = Int64(value) ?? 0
            case "max": control.maximum = Int64(value) ?? 0
            case "step": control.step = UInt64(value) ?? 1
            case "default": control.defaultValue = Int64(value) ?? 0
            case "value": control.value = Int64(value)
            case "flags":
                let names: [String: UInt32] = [
                    "inactive": CameraControl.Flag.inactive, "update": CameraControl.Flag.update,
                    "read-only": CameraControl.Flag.readOnly, "grabbed": CameraControl.Flag.grabbed,
                ]
                for name in value.split(separator: " ") {
                    guard let flag = names[String(name)] else { throw ParseError(description: "unknown flag \(name)") }
                    control.flags |= flag
                }
            case "menu":
                control.menu = value.split(separator: ",").map {
                    let item = $0.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                    return (Int64(item[0]) ?? 0, item.count > 1 ? String(item[1]) : "")
                }
            case let key: throw ParseError(description: "unknown control field \(key)")
            }
        }
        if control.value == nil { control.value = control.defaultValue }
        return control
    }

    private static func device(_ line: String) throws -> (String, DeviceIdentity, Bool) {
        guard let colon = line.firstIndex(of: ":") else { throw ParseError(description: "device line: \(line)") }
        let alias = String(line[..<colon])
        var identity = DeviceIdentity(name: alias)
        var late = false
        for field in line[line.index(after: colon)...].split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            switch (parts.first ?? "", parts.count > 1 ? parts[1] : "") {
            case ("name", let value): identity.name = value
            case ("bus", let value): identity.bus = Bus.value(named: value) ?? UInt16(value) ?? 0
            case ("vendor", let value): identity.vendor = UInt16(value.dropFirst(2), radix: 16) ?? 0
            case ("product", let value): identity.product = UInt16(value.dropFirst(2), radix: 16) ?? 0
            case ("phys", let value): identity.phys = value
            case ("late", _): late = true
            case ("codes", let value):
                for name in value.split(separator: " ") {
                    guard let code = EventCodes.code(named: String(name)) else {
                        throw ParseError(description: "unknown code \(name)")
                    }
                    identity.codes.insert(code)
                }
            case ("udev", let value):
                let pair = value.split(separator: ":", maxSplits: 1).map(String.init)
                identity.udev[pair[0]] = pair.count > 1 ? pair[1] : ""
            case (let key, _): throw ParseError(description: "unknown device field \(key)")
            }
        }
        return (alias, identity, late)
    }

    private mutating func event(_ line: String, number: Int) throws {
        let fields = line.split(separator: " ").map(String.init)
        guard fields.count >= 2, let seconds = Double(fields[0]) else {
            throw ParseError(description: "line \(number): \(line)")
        }
        let time = Instant(microseconds: Int64((seconds * 1_000_000).rounded()))
        if fields[1] == "external", fields.count == 4, let value = Int64(fields[3]) {
            external.append((time, fields[2], value))
            return
        }
        if fields[1] == "request", fields.count >= 3 {
            requests.append((time, fields[2...].joined(separator: " ")))
            return
        }
        if fields[1] == "active" {
            items.append((time, .captureActive(fields.count > 2 && fields[2] == "on")))
            return
        }
        guard let device = devices.firstIndex(where: { $0.alias == fields[1] }), fields.count >= 3 else {
            throw ParseError(description: "line \(number): unknown device in \(line)")
        }
        switch fields[2] {
        case "removed": items.append((time, .deviceRemoved(device)))
        case "added": items.append((time, .deviceAdded(device)))
        default:
            guard let code = EventCodes.code(named: fields[2]) else {
                throw ParseError(description: "line \(number): unknown code \(fields[2])")
            }
            let value = fields.count > 3 ? Int32(fields[3]) ?? 0 : 0
            items.append((time, .event(device: device, InputEvent(time: time, type: code.type, code: code.code, value: value))))
            if code.type != EventType.syn && fields.last != "+" {
                let report = InputEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0)
                items.append((time, .event(device: device, report)))
            }
        }
    }

    /// Runs the transcript through the real loader, rig and runner, with the
    /// recorder starting as the profile's camera section says (as `slate replay`
    /// does); the output lines, folded.
    func run() throws -> [String] {
        let profile: Profile
        switch ProfileLoader.load(self.profile, file: "\(name)[profile]") {
        case .success(let loaded): profile = loaded
        case .failure(let errors): throw ParseError(description: errors.description)
        }
        let timeline = Timeline(
            devices: devices.map(\.identity), present: devices.map { !$0.late }, items: items)
        // The [script] section, or 100 lines without cues, whatever the file holds.
        let prompter = profile.prompter.map { spec in
            script.map { Prompter(spec: spec, script: PrompterScript(text: $0, width: spec.width)) }
                ?? Prompter(spec: spec, length: 100 * spec.lineHeight)
        }
        let replay = try Replay(
            profile: profile, timeline: timeline, book: RigBook(camera: profile.camera, prompter: prompter),
            captureActive: !inactive,
            camera: ModelledCamera(controls: camera ?? ModelledCamera.typicalWebcam))
        var changes = external[...]
        var asked = requests[...]
        // Requests and outside changes may come after the recording's last event.
        while let next = [replay.nextDeadline, asked.first?.time, changes.first?.time].compactMap({ $0 }).min() {
            if let request = asked.first, request.time <= next {
                replay.advance(to: request.time)
                let steps = try ActionText.steps(request.action, in: profile).mapError { ParseError(description: "\($0)") }.get()
                replay.driver.handle(.request(ActionRequest(steps: steps, source: "http", time: request.time)))
                asked.removeFirst()
            } else if let change = changes.first, change.time <= next {
                replay.advance(to: change.time)
                replay.driver.changeFromOutside(change.key, to: change.value, at: change.time)
                changes.removeFirst()
            } else {
                replay.advance(to: next)
            }
        }
        let format = ReportFormat(origin: replay.origin)
        let names = Dictionary((camera ?? ModelledCamera.typicalWebcam).map { ($0.id, $0.key) }) { first, _ in first }
        return replay.driver.effects.compactMap { effect in
            switch effect {
            case .report(let report): return Self.fold(format.text(report))
            case .camera(.setControl(let id, let value), let time):
                return Self.fold("\(time.seconds(since: replay.origin, decimals: 3)) camera set \(names[id] ?? "\(id)") \(value)")
            case .rigs(let command, let time):
                let target = if case .rig(let name) = command.target { "rig \(name)" } else { "every rig" }
                return "\(time.seconds(since: replay.origin, decimals: 3)) send \(target) \(command.text)"
            default: return nil
            }
        }
    }
}

import Foundation
import SlateCore

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
///     [options]
///     inactive
///     [expect]
///     0.000 capture pedal KEY_B primary began
struct Transcript {
    var name: String
    var profile: String
    var devices: [(alias: String, identity: DeviceIdentity, late: Bool)] = []
    var items: [(time: Instant, item: Timeline.Item)] = []
    var inactive = false
    var expected: [String] = []

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(name: String, text: String) throws {
        self.name = name
        var section = ""
        var profileLines: [String] = []
        var deviceLines: [String] = []
        var eventLines: [(Int, String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            let content = line.trimmingCharacters(in: .whitespaces)
            switch section {
            case "profile": profileLines.append(line)
            case "devices" where !content.isEmpty && !content.hasPrefix("#"): deviceLines.append(content)
            case "events" where !content.isEmpty && !content.hasPrefix("#"): eventLines.append((number + 1, content))
            case "options" where content == "inactive": inactive = true
            case "expect" where !content.isEmpty && !content.hasPrefix("#"): expected.append(Self.fold(content))
            default: break
            }
        }
        profile = profileLines.joined(separator: "\n")
        for line in deviceLines { devices.append(try Self.device(line)) }
        for (number, line) in eventLines { try event(line, number: number) }
    }

    static func fold(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
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
        let replay = try Replay(profile: profile, timeline: timeline, book: RigBook(camera: profile.camera), captureActive: !inactive)
        replay.run()
        let format = ReportFormat(origin: replay.origin)
        return replay.driver.reports.map { Self.fold(format.text($0)) }
    }
}

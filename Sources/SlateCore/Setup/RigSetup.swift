/// What `slate setup` makes of a first rig: the buttons the user pressed on one
/// input device, what each does, the camera and the sound device it picked;
/// from them the profile it writes, the udev rule that gives the device to
/// the logged-in user, and the systemd drop-in the profile needs.
public struct RigSetup: Sendable, Equatable {
    /// What a button does.
    public enum Job: String, CaseIterable, Sendable {
        /// A click starts or stops a take; held, it records while held.
        case record
        /// A click deletes the last take.
        case deleteLast = "delete-last"
        /// A click exports the takes into one video.
        case export
        /// The button does nothing.
        case nothing

        /// As the setup's menu names it.
        public var text: String {
            switch self {
            case .record: "record: a click starts or stops a take, held it records while held"
            case .deleteLast: "delete the last take"
            case .export: "export the takes into one video"
            case .nothing: "nothing"
            }
        }
    }

    public var device: DeviceIdentity
    /// The buttons, in the order they were first pressed, and their jobs.
    public var buttons: [(code: EventCode, job: Job)]
    /// The camera (`/dev/video0`), or nil for the test pattern.
    public var camera: String?
    /// The ALSA capture device takes record their sound from, or nil for picture only.
    public var sound: String?

    public init(device: DeviceIdentity, buttons: [(code: EventCode, job: Job)], camera: String?, sound: String?) {
        self.device = device
        self.buttons = buttons
        self.camera = camera
        self.sound = sound
    }

    public static func == (a: RigSetup, b: RigSetup) -> Bool {
        a.device == b.device && a.buttons.map(\.code) == b.buttons.map(\.code)
            && a.buttons.map(\.job) == b.buttons.map(\.job) && a.camera == b.camera && a.sound == b.sound
    }

    /// The jobs of `count` buttons pressed from left to right: one records; two
    /// record and delete the last take; three (a foot switch's) export, record
    /// and delete the last take; any more do nothing.
    public static func defaultJobs(count: Int) -> [Job] {
        let jobs: [Job] =
            switch count {
            case 0: []
            case 1: [.record]
            case 2: [.record, .deleteLast]
            default: [.export, .record, .deleteLast]
            }
        return jobs + Array(repeating: .nothing, count: max(0, count - jobs.count))
    }

    /// The most buttons a setup takes: a device that sends more is no rig's pedal.
    public static let mostButtons = 32

    /// The keys and buttons of `events` pressed on the device, each once, in the
    /// order first pressed (what the user pressed when asked), at most `mostButtons`.
    public static func pressed(_ events: [InputEvent]) -> [EventCode] {
        var codes: [EventCode] = []
        // EV_KEY (1), pressed (value 1).
        for event in events where event.type == 1 && event.value == 1 {
            let code = EventCode(type: event.type, code: event.code)
            if !codes.contains(code) { codes.append(code) }
            if codes.count == mostButtons { break }
        }
        return codes
    }

    /// The profile, as YAML: its comments say where each part came from.
    public var profile: String {
        var lines = ["# A first rig, written by slate setup for \(device.name).", "inputs:", "  buttons:", "    match:"]
        lines.append("      - " + match)
        lines.append("    bind:")
        var capture: [String] = []
        for (code, job) in buttons {
            switch job {
            case .record: lines.append("      \(code.name): primary")
            case .export: lines.append("      \(code.name): secondary")
            case .deleteLast: lines.append("      \(code.name): take.delete-last")
            case .nothing: continue
            }
        }
        lines.append("    grab: always")
        if buttons.contains(where: { $0.job == .record }) {
            capture += ["  primary:", "    click: take.toggle", "    hold: take.start", "    release: take.stop"]
        }
        if buttons.contains(where: { $0.job == .export }) {
            capture += ["  secondary:", "    click: takes.export"]
        }
        if !capture.isEmpty { lines += ["capture:"] + capture }
        lines += ["camera:", "  back: [\(camera ?? "testpattern")]"]
        if camera == nil { lines.insert("# No camera was found: the test pattern stands in for one.", at: lines.count - 2) }
        if let sound { lines += ["audio:", "  device: \(Self.quoted(sound))"] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How the profile matches the device: its ids, or its name when it has none.
    private var match: String {
        if device.vendor != 0 || device.product != 0 {
            return "{vendor: \(Hex.id(device.vendor)), product: \(Hex.id(device.product))}"
        }
        return "{name: \(Self.quoted(device.name))}"
    }

    /// The udev rule that gives the device to the logged-in user and tags it
    /// for Slate, as one line of its own file; nil for a device without ids.
    public var udevRule: String? {
        guard device.vendor != 0 || device.product != 0 else { return nil }
        return "ACTION!=\"remove\", SUBSYSTEM==\"input\", KERNEL==\"event*\", DEVPATH!=\"/devices/virtual/input/*\", "
            + "ATTRS{id/vendor}==\"\(Hex.padded(device.vendor, 4))\", ATTRS{id/product}==\"\(Hex.padded(device.product, 4))\", "
            + "TAG+=\"uaccess\", ENV{SLATE_DEVICE}=\"1\""
    }

    /// The systemd user unit's drop-in a profile needs beyond the shipped
    /// sandbox: the network for its page, broker or OBS, and the folders it
    /// writes outside `~/Videos/Slate` (given as `home`-relative or absolute
    /// paths); nil when it needs none.
    public static func serviceDropIn(for profile: Profile, home: String) -> String? {
        var lines: [String] = []
        if profile.http != nil || profile.mqtt != nil || profile.obs != nil {
            lines.append("# The page, the broker or OBS: Internet sockets.")
            lines.append("RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6")
        }
        let shipped = home + "/Videos/Slate"
        let folders = [profile.camera.work, profile.camera.output].compactMap { $0 }.map {
            $0 == "~" || $0.hasPrefix("~/") ? home + $0.dropFirst() : $0
        }.filter { $0 != shipped && !$0.hasPrefix(shipped + "/") }
        if !folders.isEmpty {
            lines.append("# The profile's work and output folders.")
            lines += folders.map { "ReadWritePaths=-\($0)" }
        }
        return lines.isEmpty ? nil : "[Service]\n" + lines.joined(separator: "\n") + "\n"
    }

    /// A YAML scalar in double quotes, its quotes and backslashes escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + String(text.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] }) + "\""
    }
}

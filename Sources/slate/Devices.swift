import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate devices`: the input devices present, and how they match a profile.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List input devices with their identity and, with --profile, the input each one matches.",
        discussion: "For each input a device does not match, the rule that failed is shown.")

    @Option(help: "A profile to match the devices against.")
    var profile: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    /// One event node, readable or not.
    struct Entry {
        var node: UdevInputNode
        var identity: DeviceIdentity
        var error: String?
        /// What gives this user a node it may not open (`DeviceAccess`).
        var access: String?
        /// The node's own codes (`identity` has its device's, all nodes together).
        var codes: Set<EventCode> = []
    }

    /// What a profile does with a device: the input it is, whether grabbing it
    /// takes a uinput clone, and why that cannot be made.
    struct Binding {
        var matches: [InputMatch]
        var clone = false
        var warning: String?
    }

    func run() throws {
        let loaded = try profile.map(ProfileSource.loadOrExit)
        let udev: Udev
        do {
            udev = try Udev()
        } catch {
            OutputStream.writeError("slate devices: \(error)")
            throw ExitCode.failure
        }
        let access = LoginSeat.access()
        var entries = udev.inputNodes().map { Self.entry($0, access: access) }
        if entries.isEmpty { OutputStream.writeError("slate devices: no input event devices (/dev/input/event*) found") }
        var groups: [String: Set<EventCode>] = [:]
        for entry in entries { groups[entry.node.group, default: []].formUnion(entry.identity.codes) }
        for index in entries.indices { entries[index].identity.codes = groups[entries[index].node.group] ?? [] }
        let output = OutputStream()
        for entry in entries {
            let binding = loaded.map { Self.binding(entry, $0, uinputWritable: Uinput.isWritable) }
            if json {
                output.writeLine(Self.json(entry, binding))
            } else {
                Self.text(entry, binding, siblings: entries.filter { $0.node.group == entry.node.group }.count)
                    .forEach(output.writeLine)
            }
        }
        output.flush()
    }

    static func entry(_ node: UdevInputNode, access: DeviceAccess) -> Entry {
        do {
            var identity = try EvdevDevice(path: node.devnode).identity
            identity.udev = node.properties
            return Entry(node: node, identity: identity, error: nil, codes: identity.codes)
        } catch {
            return Entry(
                node: node, identity: udevIdentity(node), error: "\(error)", access: access.advice(for: node, after: error))
        }
    }

    /// What udev alone tells of a device Slate cannot open: NAME and PRODUCT (bus/vendor/product/version).
    static func udevIdentity(_ node: UdevInputNode) -> DeviceIdentity {
        let ids = (node.properties["PRODUCT"] ?? "").split(separator: "/").map { UInt16($0, radix: 16) ?? 0 }
        let id = { (index: Int) in index < ids.count ? ids[index] : 0 }
        return DeviceIdentity(
            name: node.properties["NAME"] ?? "", bus: id(0), vendor: id(1), product: id(2), version: id(3),
            phys: node.properties["PHYS"] ?? "", uniq: node.properties["UNIQ"] ?? "", udev: node.properties)
    }

    /// How `profile` binds the device: as Slate's live inputs do, the first
    /// input that matches it is the one it is.
    static func binding(_ entry: Entry, _ profile: Profile, uinputWritable: Bool) -> Binding {
        var binding = Binding(matches: profile.explainMatch(entry.identity))
        guard let index = profile.inputIndex(matching: entry.identity) else { return binding }
        let input = profile.inputs[index]
        binding.clone = input.needsClone(for: entry.codes)
        if binding.clone && !uinputWritable {
            binding.warning =
                "grabbing it takes a uinput clone for the keys input '\(input.name)' does not bind, and this user cannot open \(Uinput.path): Slate will not grab it; \(Uinput.advice)"
        }
        return binding
    }

    static func text(_ entry: Entry, _ binding: Binding?, siblings: Int) -> [String] {
        let device = entry.identity
        var lines = ["\(entry.node.devnode)  \(device.name)"]
        var details =
            "    \(Bus.name(of: device.bus)) \(Hex.id(device.vendor)):\(Hex.id(device.product)) version \(Hex.id(device.version))"
        if !device.phys.isEmpty { details += ", phys \(device.phys)" }
        details += ", \(device.codes.count) codes"
        if siblings > 1 { details += ", one of \(siblings) nodes of this device" }
        lines.append(details)
        if let bluetooth = BluetoothAddresses(device) { lines.append("    Bluetooth: \(bluetooth.summary)") }
        if let error = entry.error { lines.append("    not readable: \(error)") }
        if let access = entry.access { lines.append("    " + access) }
        if entry.node.properties["SLATE_DEVICE"] == "1" { lines.append("    tagged by Slate's udev rules") }
        for match in binding?.matches ?? [] {
            lines.append(
                match.matches
                    ? "    matches input '\(match.input)'"
                    : "    not input '\(match.input)': " + match.reasons.joined(separator: "; or "))
        }
        if let warning = binding?.warning { lines.append("    " + warning) }
        return lines
    }

    static func json(_ entry: Entry, _ binding: Binding?) -> String {
        let profile = binding.map { binding in
            DeviceLine.ProfileMatch(
                input: binding.matches.first(where: \.matches)?.input,
                mismatches: Dictionary(
                    binding.matches.filter { !$0.matches }.map { ($0.input, $0.reasons) }, uniquingKeysWith: { first, _ in first }
                ),
                clone: binding.clone, warning: binding.warning)
        }
        return JSONLine.encode(
            DeviceLine(
                path: entry.node.devnode, identity: entry.identity, group: entry.node.group, error: entry.error,
                access: entry.access, udev: entry.node.properties, profile: profile))
    }
}

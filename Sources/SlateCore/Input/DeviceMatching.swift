/// Matching devices to a profile's inputs, with the reason each rule failed.
extension MatchRules {
    /// Why `device` does not match these rules (the first rule that fails), or nil when it matches.
    public func mismatch(_ device: DeviceIdentity) -> String? {
        if let name, !name.matches(device.name) { return "name '\(device.name)' does not match '\(name)'" }
        if let bus, bus != device.bus {
            return "bus \(Bus.name(of: device.bus)) is not \(Bus.name(of: bus))"
        }
        if let vendor, vendor != device.vendor { return "vendor \(Hex.id(device.vendor)) is not \(Hex.id(vendor))" }
        if let product, product != device.product {
            return "product \(Hex.id(device.product)) is not \(Hex.id(product))"
        }
        if let phys, !phys.matches(device.phys) { return "phys '\(device.phys)' does not match '\(phys)'" }
        if let uniq, !uniq.matches(device.uniq) { return "uniq '\(device.uniq)' does not match '\(uniq)'" }
        if let missing = has.first(where: { !device.codes.contains($0) }) { return "the device has no \(missing.name)" }
        for (property, value) in udev {
            guard let actual = device.udev[property] else { return "udev property \(property) is not set" }
            if !value.matches(actual) { return "udev property \(property)=\(actual) does not match '\(value)'" }
        }
        return nil
    }
}

/// How one input of a profile relates to a device.
public struct InputMatch: Sendable {
    public var input: String
    /// Empty when the device matches; otherwise one reason per `match` alternative.
    public var reasons: [String]

    public var matches: Bool { reasons.isEmpty }
}

extension Profile {
    /// The first input whose rules match `device`.
    public func inputIndex(matching device: DeviceIdentity) -> Int? {
        inputs.firstIndex { input in input.match.contains { $0.mismatch(device) == nil } }
    }

    /// For every input: whether `device` matches it, and if not, why not.
    public func explainMatch(_ device: DeviceIdentity) -> [InputMatch] {
        inputs.map { input in
            let reasons = input.match.map { $0.mismatch(device) }
            return InputMatch(input: input.name, reasons: reasons.contains(nil) ? [] : reasons.compactMap { $0 })
        }
    }
}

extension MatchRules {
    /// The rules as a profile writes them: `vendor 0x3553, product 0xb001`,
    /// `name "PCsensor*"`; `any device` when there are none.
    public var summary: String {
        var parts: [String] = []
        if let name { parts.append("name \"\(name)\"") }
        if let bus { parts.append("bus \(Bus.name(of: bus))") }
        if let vendor { parts.append("vendor \(Hex.id(vendor))") }
        if let product { parts.append("product \(Hex.id(product))") }
        if let phys { parts.append("phys \"\(phys)\"") }
        if let uniq { parts.append("uniq \"\(uniq)\"") }
        if !has.isEmpty { parts.append("has " + has.map(\.name).joined(separator: " ")) }
        for (property, value) in udev { parts.append("udev \(property)=\"\(value)\"") }
        return parts.isEmpty ? "any device" : parts.joined(separator: ", ")
    }
}

extension Profile {
    /// What a rig with no device bound waits for: `waiting for pedals (vendor
    /// 0x3553, product 0xb001; or vendor 0x1a86, product 0xe026)`, every input.
    public var waitingMessage: String {
        "waiting for "
            + inputs.map { input in "\(input.name) (" + input.match.map(\.summary).joined(separator: "; or ") + ")" }
            .joined(separator: " or ")
    }
}

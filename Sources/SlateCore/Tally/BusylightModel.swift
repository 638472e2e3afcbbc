/// The USB busylights Slate drives through hidraw, each with its documented report.
public enum BusylightModel: String, CaseIterable, Sendable {
    /// ThingM blink(1): feature report 1, `'n'` sets the colour now.
    case blink1
    /// Luxafor Flag: an 8-byte output report, command 1 sets every LED.
    case luxafor
    /// Kuando Busylight Alpha and Omega: a 64-byte output report of steps and a
    /// checksummed footer; the light goes dark without a report every few seconds.
    case kuando

    /// How often a busylight is written again, so a Kuando stays lit (its
    /// keep-alive is at most 15 s) and one plugged in late lights within it.
    public static let refresh = Duration.seconds(5)

    /// USB vendor and product ids.
    public var ids: [(vendor: UInt16, product: UInt16)] {
        switch self {
        case .blink1: [(0x27B8, 0x01ED)]
        case .luxafor: [(0x04D8, 0xF372)]
        case .kuando:
            [(0x04D8, 0xF848), (0x27BB, 0x3BCA), (0x27BB, 0x3BCB), (0x27BB, 0x3BCE), (0x27BB, 0x3BCD), (0x27BB, 0x3BCF)]
        }
    }

    /// The model with these ids, if any.
    public static func model(vendor: UInt16, product: UInt16) -> BusylightModel? {
        allCases.first { $0.ids.contains { $0.vendor == vendor && $0.product == product } }
    }

    /// The report that shows `light`.
    public func report(_ light: TallyLight) -> BusylightReport {
        let color = if case .lit(let color) = light { color } else { TallyColor(red: 0, green: 0, blue: 0) }
        switch self {
        case .blink1:
            return BusylightReport(kind: .feature, bytes: [1, UInt8(ascii: "n"), color.red, color.green, color.blue, 0, 0, 0, 0])
        case .luxafor:
            return BusylightReport(kind: .output, bytes: [0, 1, 0xFF, color.red, color.green, color.blue, 0, 0, 0])
        case .kuando:
            var command = [UInt8](repeating: 0, count: 64)
            command[0] = 0x10  // jump to step 0, which shows the colour
            for (index, channel) in [color.red, color.green, color.blue].enumerated() {
                command[2 + index] = UInt8(Int(channel) * 100 / 255)
            }
            command[59] = 0xFF
            command[60] = 0xFF
            command[61] = 0xFF
            let sum = command[0..<62].reduce(0) { $0 + Int($1) }
            command[62] = UInt8(sum >> 8)
            command[63] = UInt8(sum & 0xFF)
            return BusylightReport(kind: .output, bytes: [0] + command)
        }
    }
}

/// Bytes for a busylight, as hidraw takes them: the report number first (0 for
/// a device without numbered reports, which the kernel leaves out on the wire).
public struct BusylightReport: Equatable, Sendable {
    public enum Kind: Sendable {
        /// Written with `HIDIOCSFEATURE`.
        case feature
        /// Written with `write(2)`.
        case output
    }

    public var kind: Kind
    public var bytes: [UInt8]
}

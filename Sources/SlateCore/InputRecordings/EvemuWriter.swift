/// Writes evemu-record 1.3 text, which `slate replay` and evemu-play read back.
public struct EvemuWriter {
    /// An absolute axis's range, as `A:` lines give it.
    public struct AxisInfo: Sendable {
        public var code: UInt16
        public var minimum: Int32
        public var maximum: Int32
        public var fuzz: Int32
        public var flat: Int32
        public var resolution: Int32

        public init(code: UInt16, minimum: Int32, maximum: Int32, fuzz: Int32, flat: Int32, resolution: Int32) {
            self.code = code
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }
    }

    private var first: Instant?

    public init() {}

    /// The description lines: name, ids, properties, code bitmasks and axes.
    public static func header(_ device: DeviceIdentity, properties: [Int] = [], axes: [AxisInfo] = []) -> [String] {
        var lines = [
            "# EVEMU 1.3",
            "# Input device name: \"\(device.name)\"",
            "# Input device ID: bus \(Hex.padded(device.bus, 4)) vendor \(Hex.padded(device.vendor, 4)) product \(Hex.padded(device.product, 4)) version \(Hex.padded(device.version, 4))",
            "N: \(device.name)",
            "I: \(Hex.padded(device.bus, 4)) \(Hex.padded(device.vendor, 4)) \(Hex.padded(device.product, 4)) \(Hex.padded(device.version, 4))",
        ]
        var props = [UInt8](repeating: 0, count: 8)
        for property in properties where (0..<64).contains(property) { props[property / 8] |= 1 << (property % 8) }
        lines.append("P: " + props.map { Hex.padded($0, 2) }.joined(separator: " "))
        var types = Set(device.codes.map(\.type))
        types.insert(EventType.syn)
        var typeMask = [UInt8](repeating: 0, count: 8)
        for type in types where type < 64 { typeMask[Int(type) / 8] |= 1 << (type % 8) }
        lines += bitmaskLines(type: 0, typeMask)
        for type in types.sorted() where type != EventType.syn {
            guard let max = EventCodes.maxCode(type: type) else { continue }
            var mask = [UInt8](repeating: 0, count: (Int(max) / 8 + 1 + 7) / 8 * 8)
            for code in device.codes where code.type == type && code.code <= max {
                mask[Int(code.code) / 8] |= 1 << (code.code % 8)
            }
            lines += bitmaskLines(type: type, mask)
        }
        for axis in axes.sorted(by: { $0.code < $1.code }) {
            lines.append(
                "A: \(Hex.padded(axis.code, 2)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)")
        }
        return lines
    }

    private static func bitmaskLines(type: UInt16, _ mask: [UInt8]) -> [String] {
        stride(from: 0, to: mask.count, by: 8).map { start in
            "B: \(Hex.padded(type, 2)) "
                + mask[start..<min(start + 8, mask.count)].map { Hex.padded($0, 2) }.joined(separator: " ")
        }
    }

    /// One `E:` line; times count from the first event, which is at 0.000001 as in evemu-record.
    public mutating func event(_ event: InputEvent) -> String {
        let origin = first ?? Instant(microseconds: event.time.microseconds - 1)
        first = origin
        let micros = max(0, event.time.microseconds - origin.microseconds)
        let fraction = String(micros % 1_000_000)
        let time = "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
        var line = "E: \(time) \(Hex.padded(event.type, 4)) \(Hex.padded(event.code, 4)) \(event.value)"
        if event.type == EventType.syn && event.code == SynCode.report {
            line += "\t# ------------ SYN_REPORT (0) ----------"
        } else if let name = EventCodes.name(type: event.type, code: event.code) {
            line += "\t# \(name) \(event.value)"
        }
        return line
    }
}

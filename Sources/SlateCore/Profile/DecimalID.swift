/// A vendor or product id a profile writes in decimal (`vendor: 3553`), where
/// lsusb, udev and `slate devices` write ids in hex: a likely slip that
/// matches nothing. Kept with its place so `slate check` can warn when no
/// device present has it and one has its hex reading.
public struct DecimalID: Hashable, Sendable {
    /// Which id of a `match` alternative it is.
    public enum Field: String, Hashable, Sendable {
        case vendor, product
    }

    public var field: Field
    public var value: UInt16
    public var line: Int
    public var column: Int

    public init(field: Field, value: UInt16, line: Int, column: Int) {
        self.field = field
        self.value = value
        self.line = line
        self.column = column
    }

    /// The digits read as hex (3553 → 0x3553); nil when they do not fit 16 bits.
    public var hexReading: UInt16? { UInt16(String(value), radix: 16) }

    /// Warnings for the ids of `profile` written in decimal that no device in
    /// `present` (vendor and product of each) has, when one has their hex reading.
    public static func warnings(_ profile: Profile, present: [(vendor: UInt16, product: UInt16)]) -> [Diagnostic] {
        let ids = profile.inputs.flatMap { $0.match.flatMap(\.decimalIDs) }
        return ids.compactMap { id in
            let values = present.map { id.field == .vendor ? $0.vendor : $0.product }
            guard let hex = id.hexReading, hex != id.value, !values.contains(id.value), values.contains(hex) else {
                return nil
            }
            return Diagnostic(
                file: profile.file, line: id.line, column: id.column,
                message:
                    "\(id.field.rawValue) \(id.value) is decimal (\(Hex.id(id.value))): no device present has it, "
                    + "but one has \(Hex.id(hex)); write \(Hex.id(hex)) if that is the device",
                severity: .warning)
        }
    }
}

/// Hexadecimal numbers as Slate prints them.
public enum Hex {
    /// `value` in lower-case hex, zero-padded to at least `digits` digits: `046d`.
    public static func padded(_ value: some BinaryInteger, _ digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// `0x0f`: padded, with the `0x` prefix.
    public static func prefixed(_ value: some BinaryInteger, digits: Int) -> String { "0x" + padded(value, digits) }

    /// `0x046d`: a USB-style id, four hex digits.
    public static func id(_ value: UInt16) -> String { prefixed(value, digits: 4) }
}

/// Text from outside (a broker's commands, other rigs' names and lines,
/// OBS's answers) made safe to print on a terminal: control characters
/// (C0, DEL, C1: ESC, BEL, CR, ...) and the marks that reorder text on
/// screen (bidirectional overrides and isolates) are written as `\u{1B}`,
/// so nobody can clear, retitle or forge the operator's report lines.
public enum TerminalText {
    /// `text` with every control character and bidirectional mark escaped.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

/// Durations as profiles write them: a number and a unit, e.g. `500ms`, `0.5s`, `250us`.
public enum DurationText {
    /// Parses `500ms`, `1.5s`, `20us` (spaces between number and unit allowed).
    /// Returns nil for anything else, including negative or absurdly long values.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.filter { $0 != " " }
        let units: [(suffix: String, micros: Int64)] = [("us", 1), ("ms", 1_000), ("s", 1_000_000)]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count)
            guard let micros = microseconds(String(number), scale: unit.micros) else { return nil }
            return .microseconds(micros)
        }
        return nil
    }

    /// `number * scale` for a plain decimal number without exponent, or nil.
    private static func microseconds(_ number: String, scale: Int64) -> Int64? {
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let wholeText = parts.first, !wholeText.isEmpty || parts.count == 2,
            wholeText.allSatisfy(\.isASCIIDigit), wholeText.count <= 9
        else { return nil }
        let whole = Int64(wholeText) ?? 0
        var micros = whole * scale
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit), fraction.count <= 6 else { return nil }
            let padded = fraction + String(repeating: "0", count: 6 - fraction.count)
            micros += (Int64(padded) ?? 0) * scale / 1_000_000
        }
        guard micros <= 3_600_000_000 else { return nil }
        return micros
    }

    /// `500ms`, `1.5s`: the shortest exact spelling of a duration.
    public static func format(_ duration: Duration) -> String {
        let micros = duration.microseconds
        if micros % 1_000_000 == 0 { return "\(micros / 1_000_000)s" }
        if micros % 1_000 == 0 { return "\(micros / 1_000)ms" }
        return "\(micros)us"
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

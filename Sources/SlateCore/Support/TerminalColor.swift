/// Colour on a terminal that takes it (ECMA-48 SGR codes), as compilers and
/// git colour theirs: a diagnostic's severity, a log line's level. Off when
/// the output is not a terminal, `NO_COLOR` is set (no-color.org) or `TERM`
/// is `dumb`.
public enum TerminalColor {
    /// What a coloured word says.
    public enum Tint: Sendable {
        case error, warning, quiet
    }

    /// Whether to colour output to a terminal (`isTerminal`) given the
    /// environment's `NO_COLOR` and `TERM`: a `NO_COLOR` of any non-empty value turns it off.
    public static func wanted(isTerminal: Bool, noColor: String?, term: String?) -> Bool {
        isTerminal && (noColor ?? "").isEmpty && term != "dumb"
    }

    /// `text` in `tint`, the colour reset after it.
    public static func paint(_ text: String, _ tint: Tint) -> String {
        let code =
            switch tint {
            case .error: "1;31"
            case .warning: "1;35"
            case .quiet: "2"
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// `FILE:LINE:COLUMN: error: MESSAGE` with the severity coloured.
    public static func paint(_ diagnostic: Diagnostic) -> String {
        let severity = diagnostic.severity.rawValue
        return "\(diagnostic.file):\(diagnostic.line):\(diagnostic.column): "
            + paint(severity + ":", diagnostic.severity == .error ? .error : .warning) + " \(diagnostic.message)"
    }
}

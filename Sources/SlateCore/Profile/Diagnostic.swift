/// A profile error (or warning) with its position, printed as
/// `FILE:LINE:COLUMN: error: MESSAGE`, as compilers do.
public struct Diagnostic: Codable, Hashable, Sendable, CustomStringConvertible {
    /// An error refuses the profile; a warning names a likely slip in one that loads.
    public enum Severity: String, Codable, Hashable, Sendable {
        case error, warning
    }

    public var file: String
    public var line: Int
    public var column: Int
    public var message: String
    public var severity: Severity

    public init(file: String, line: Int, column: Int, message: String, severity: Severity = .error) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
    }

    public var description: String { "\(file):\(line):\(column): \(severity.rawValue): \(message)" }
}

/// All the errors found in one profile file.
public struct ProfileErrors: Error, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// One error about the whole file (it cannot be read, say), placed at its start.
    public init(_ file: String, _ message: String) {
        diagnostics = [Diagnostic(file: file, line: 1, column: 1, message: message)]
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// `slate check --json`: one line per profile file checked.
public struct ProfileCheckLine: Codable, Hashable, Sendable {
    public var file: String
    /// Whether the profile loads (warnings do not stop it).
    public var ok: Bool
    /// How many inputs it has, when it loads.
    public var inputs: Int?
    public var diagnostics: [Diagnostic]

    public init(file: String, ok: Bool, inputs: Int?, diagnostics: [Diagnostic]) {
        self.file = file
        self.ok = ok
        self.inputs = inputs
        self.diagnostics = diagnostics
    }
}

/// A profile error with its position, printed as `FILE:LINE:COLUMN: error: MESSAGE`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
}

/// All the errors found in one profile file.
public struct ProfileErrors: Error, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

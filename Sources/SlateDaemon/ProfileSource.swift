import SlateCore
import SlateSystem

/// Errors that stop a command, as the lines to print.
public struct CommandFailure: Error {
    public var lines: [String]

    public init(lines: [String]) { self.lines = lines }
}

/// Reads and loads a profile file.
public enum ProfileSource {
    public static func load(_ path: String) -> Result<Profile, CommandFailure> {
        let text: String
        do {
            text = try FileReading.text(atPath: path)
        } catch {
            return .failure(CommandFailure(lines: ["\(path):1:1: error: \(error.description.dropFirst(path.count + 2))"]))
        }
        return ProfileLoader.load(text, file: path).mapError { CommandFailure(lines: $0.diagnostics.map(\.description)) }
    }
}

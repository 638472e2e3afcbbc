import SlateCore
import SlateSystem

/// Errors that stop a command, as the lines to print.
public struct CommandFailure: Error {
    public var lines: [String]

    public init(lines: [String]) { self.lines = lines }
}

/// Reads and loads a profile file, and reads the prompter script it names.
public enum ProfileSource {
    public static func load(_ path: String) -> Result<Profile, CommandFailure> {
        let text: String
        do {
            text = try FileReading.text(atPath: path, limit: ProfileLoader.sizeLimit)
        } catch {
            return .failure(CommandFailure(lines: ["\(path):1:1: error: \(error.description.dropFirst(path.count + 2))"]))
        }
        let loaded = ProfileLoader.load(text, file: path).mapError { CommandFailure(lines: $0.diagnostics.map(\.description)) }
        if case .success(let profile) = loaded, let spec = profile.prompter {
            do {
                _ = try PrompterFile(spec, profilePath: path)
            } catch {
                return .failure(CommandFailure(lines: ["\(path):1:1: error: prompter.script: \(error)"]))
            }
        }
        return loaded
    }
}

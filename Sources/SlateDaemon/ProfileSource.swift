import SlateCore
import SlateSystem

/// Reads and loads a profile file, and reads the prompter script it names.
public enum ProfileSource {
    public static func load(_ path: String) -> Result<Profile, ProfileErrors> {
        let text: String
        do {
            text = try FileReading.text(atPath: path, limit: ProfileLoader.sizeLimit)
        } catch {
            return .failure(ProfileErrors(path, "\(error.description.dropFirst(path.count + 2))"))
        }
        let loaded = ProfileLoader.load(text, file: path)
        if case .success(let profile) = loaded, let spec = profile.prompter {
            do {
                _ = try PrompterFile(spec, profilePath: path)
            } catch {
                return .failure(ProfileErrors(path, "prompter.script: \(error)"))
            }
        }
        return loaded
    }
}

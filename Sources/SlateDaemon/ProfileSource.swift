import SlateCore
import SlateSystem

/// Reads and loads a profile file, and reads the prompter script it names.
public enum ProfileSource {
    /// A profile as read, with the prompter's script it names (read once, to
    /// check it and to use it).
    public struct Read: Sendable {
        public let profile: Profile
        public let script: PrompterFile?
    }

    public static func load(_ path: String) -> Result<Profile, ProfileErrors> {
        read(path).map(\.profile)
    }

    /// The profile at `path` and its prompter's script; a script that cannot
    /// be read makes the profile invalid.
    public static func read(_ path: String) -> Result<Read, ProfileErrors> {
        let text: String
        do {
            text = try FileReading.text(atPath: path, limit: ProfileLoader.sizeLimit)
        } catch {
            return .failure(ProfileErrors(path, "\(error.description.dropFirst(path.count + 2))"))
        }
        return ProfileLoader.load(text, file: path).flatMap { profile in
            guard let spec = profile.prompter else { return .success(Read(profile: profile, script: nil)) }
            do {
                return .success(Read(profile: profile, script: try PrompterFile(spec, profilePath: path)))
            } catch {
                return .failure(ProfileErrors(path, "prompter.script: \(error)"))
            }
        }
    }
}

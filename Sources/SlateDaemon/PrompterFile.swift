import SlateCore
import SlateSystem

/// The teleprompter's script, read at start from the file the profile names
/// (relative to the profile's folder) and wrapped as every screen shows it.
public struct PrompterFile: Sendable {
    public let script: PrompterScript
    public let prompter: Prompter

    /// The script of `spec`, for the profile at `profilePath`; throws naming the file.
    public init(_ spec: PrompterSpec, profilePath: String) throws(OperationError) {
        let path = spec.script.hasPrefix("/") ? spec.script : (SoundLibrary.folder(of: profilePath) ?? ".") + "/" + spec.script
        script = PrompterScript(text: try FileReading.text(atPath: path, limit: PrompterSpec.scriptLimit), width: spec.width)
        prompter = Prompter(spec: spec, length: script.length(spec))
    }
}

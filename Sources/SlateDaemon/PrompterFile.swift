import SlateCore
import SlateSystem
import SlateWeb

/// The teleprompter's script, read from the file the profile names (relative
/// to the profile's folder) and wrapped as every screen shows it: at start, on
/// SIGHUP, and when the page saves it.
public struct PrompterFile: Sendable {
    /// The file, its text and its lines.
    public let source: PrompterSource
    public let prompter: Prompter

    /// The script of `spec`, for the profile at `profilePath`; throws naming the file.
    public init(_ spec: PrompterSpec, profilePath: String) throws(OperationError) {
        let path = spec.script.hasPrefix("/") ? spec.script : (SoundLibrary.folder(of: profilePath) ?? ".") + "/" + spec.script
        let text = try FileReading.text(atPath: path, limit: PrompterSpec.scriptLimit)
        let script = PrompterScript(text: text, width: spec.width)
        source = PrompterSource(path: path, text: text, script: script, editable: spec.editable)
        prompter = Prompter(spec: spec, script: script)
    }
}

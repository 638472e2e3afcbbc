import SlateCore
import SlateSystem
import Synchronization

/// The prompter's script as the page's editor reads and saves it: read from
/// the file itself (it may have been edited on the rig since the daemon read
/// it), saved one save at a time, only over the version the editor started
/// from, and atomically (a new file, synced, renamed over the old one,
/// keeping its mode), so a crash leaves the old script or the new one, never
/// half of one.
final class ScriptSaves: Sendable {
    /// Why a script was not read or saved.
    enum Failure: Error, CustomStringConvertible {
        /// The file changed since the editor read it (another page, or an editor on the rig).
        case changed(file: String)
        /// The file is a link, which a save would replace with a file.
        case link(file: String)
        /// Its folder is not the rig user's own, or others may write to it.
        case folder(String)
        case failed(String)

        var description: String {
            switch self {
            case .changed(let file):
                "\(file) changed since this editor read it: reload it to see the new text (yours stays here until you do)"
            case .link(let file): "\(file) is a symbolic link: name the file it points to in the profile to edit it here"
            case .folder(let reason): "the script's folder cannot be written safely: \(reason)"
            case .failed(let reason): reason
            }
        }
    }

    private let saving = Mutex(())

    /// Why the script's folder is refused, without the advice for a work folder.
    private static func reason(_ failure: Folder.Failure) -> String {
        switch failure {
        case .notOwned(let path, let owner): "\(path) belongs to \(owner), not to the rig's user"
        case .writableByOthers(let path, _): "other users can write to \(path): run 'chmod go-w \(path)'"
        case .link(let path): "\(path) is a symbolic link"
        case .missing, .system: "\(failure)"
        }
    }

    /// The text of the script at `path`, as the file holds it now.
    func read(at path: String) -> Result<String, Failure> {
        saving.withLock { _ in
            do {
                return .success(try FileReading.text(atPath: path, limit: PrompterSpec.scriptLimit))
            } catch {
                return .failure(.failed("the script cannot be read: \(error)"))
            }
        }
    }

    /// Writes `text` to `path` if the file there is still `base` (any version
    /// without one; a file that already holds `text` is left as it is); the new version.
    func save(_ text: String, over base: String?, at path: String) -> Result<String, Failure> {
        let (folderPath, name) = Folder.split(path)
        let version = PrompterScript.version(of: text)
        return saving.withLock { _ in
            let folder: Folder
            do throws(Folder.Failure) {
                folder = try Folder(folderPath)
            } catch {
                return .failure(.folder(Self.reason(error)))
            }
            do {
                let status = folder.status(of: name)
                if status?.type == .symbolicLink { return .failure(.link(file: name)) }
                if status != nil {
                    let current = PrompterScript.version(of: try FileReading.text(atPath: path, limit: PrompterSpec.scriptLimit))
                    if current == version { return .success(version) }
                    if let base, current != base { return .failure(.changed(file: name)) }
                }
                let mode = status.map { $0.mode.rawValue & 0o666 } ?? 0o644
                try FileWriting.atomicWrite(text, to: name, in: folder, mode: mode)
                return .success(version)
            } catch {
                return .failure(.failed("the script was not saved: \(error)"))
            }
        }
    }
}

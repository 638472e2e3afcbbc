import SlateCore
import SlateSystem

/// One camera's presets file, `<folder>/<camera>.yaml`: read and written on
/// the camera session's thread, the folder made private (0700) when missing,
/// the file replaced whole so a crash leaves the old one or the new one.
struct PresetStore {
    /// Why a preset could not be read or written.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let folder: String
    let camera: String

    var name: String { camera + ".yaml" }
    var path: String { folder + "/" + name }

    /// The slot's values; nil when the file or the slot is missing.
    func load(_ slot: Int) throws(Failure) -> [PresetValue]? {
        guard let slots = try read(creating: false) else { return nil }
        return slots[slot]
    }

    /// Keeps `values` in `slot`, the other slots as they were.
    func save(_ values: [PresetValue], in slot: Int) throws(Failure) {
        var slots = try read(creating: true) ?? [:]
        slots[slot] = values
        do {
            let opened = try Folder(folder, creating: 0o700)
            try FileWriting.atomicWrite(PresetFile.render(slots, camera: camera), to: name, in: opened, mode: 0o600)
        } catch {
            throw Failure(description: "\(error)")
        }
    }

    private func read(creating: Bool) throws(Failure) -> [Int: [PresetValue]]? {
        do {
            let opened = try Folder(folder, creating: creating ? 0o700 : nil)
            guard opened.contains(name) else { return nil }
            let bytes = try opened.read(name)
            return try PresetFile.parse(String(decoding: bytes, as: UTF8.self), file: path)
        } catch Folder.Failure.missing {
            return nil
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}

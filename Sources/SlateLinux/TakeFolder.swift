import Glibc
import SlateCore

/// A rig's work folder: the take files, their thumbnails and `takes.json`.
public struct TakeFolder {
    /// Why the folder's manifest could not be read.
    public enum Failure: Error, CustomStringConvertible {
        case system(SystemError)
        case manifest([Diagnostic])

        public var description: String {
            switch self {
            case .system(let error): "\(error)"
            case .manifest(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
            }
        }
    }

    public let path: String

    public init(path: String) { self.path = path }

    public var manifestPath: String { path + "/" + TakeManifest.fileName }

    public func file(_ name: String) -> String { path + "/" + name }

    /// The manifest; an empty one when the folder has none yet.
    public func load() throws(Failure) -> TakeManifest {
        let text: String
        do {
            text = try FileReading.text(atPath: manifestPath)
        } catch {
            if error.errno == ENOENT { return TakeManifest() }
            throw .system(error)
        }
        switch TakeManifest.parse(text, file: manifestPath) {
        case .success(let manifest): return manifest
        case .failure(let errors): throw .manifest(errors.diagnostics)
        }
    }

    /// Saves the manifest. When the disk is full, the space `reserveSpace()` set
    /// aside is given up for it.
    public func save(_ manifest: TakeManifest) throws(SystemError) {
        do {
            try FileWriting.atomicWrite(manifest.json, toPath: manifestPath)
        } catch where error.errno == ENOSPC && unlink(reservePath) == 0 {
            try FileWriting.atomicWrite(manifest.json, toPath: manifestPath)
        }
    }

    /// A file holding space for the manifest, in case the takes fill the disk.
    public var reservePath: String { path + "/.takes.reserve" }

    /// Sets `bytes` aside for the manifest (once; again after `save` used them).
    public func reserveSpace(bytes: Int = 128 * 1024) throws(SystemError) {
        guard access(reservePath, F_OK) != 0 else { return }
        let fd = open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError("create", path: reservePath) }
        defer { close(fd) }
        let status = posix_fallocate(fd, 0, off_t(bytes))
        if status != 0 {
            unlink(reservePath)
            throw SystemError("reserve space (fallocate)", path: reservePath, errno: status)
        }
    }

    /// Removes a take's file, its thumbnail and its manifest entry (the entry first,
    /// so a crash never leaves the manifest pointing at a missing file). When the
    /// manifest cannot be saved, nothing is removed, `manifest` included.
    public func delete(_ take: TakeManifest.Take, from manifest: inout TakeManifest) throws(SystemError) {
        var remaining = manifest
        remaining.takes.removeAll { $0.id == take.id }
        try save(remaining)
        manifest = remaining
        for name in [take.file] + (take.thumbnail.map { [$0] } ?? []) where unlink(file(name)) != 0 && errno != ENOENT {
            throw SystemError("delete", path: file(name))
        }
        try FileSync.folder(of: file(take.file))
    }

    /// Takes a crash left marked as recording: each is measured from its file and
    /// listed as finished; one without a readable frame leaves the list (its file,
    /// if any, stays on disk). Returns what was done, for the log.
    public func recover(_ manifest: inout TakeManifest) -> [String] {
        var notes: [String] = []
        var changed = false
        for index in manifest.takes.indices.reversed() where manifest.takes[index].recording {
            changed = true
            let path = file(manifest.takes[index].file)
            do {
                let info = try MediaProbe.probe(path: path)
                guard info.frameCount > 0 else { throw MediaError("read a frame", path: path, message: "no complete fragment") }
                manifest.takes[index].recording = false
                manifest.takes[index].frames = info.frameCount
                manifest.takes[index].duration = .microseconds(info.durationMicroseconds)
                notes.append("recovered \(path): \(info.frameCount) frames, \(info.seconds) s")
            } catch {
                manifest.takes.remove(at: index)
                notes.append("\(path) was being recorded and holds no readable frame (\(error)); it is no longer listed")
            }
        }
        if changed {
            do {
                try save(manifest)
            } catch {
                notes.append("\(error)")
            }
        }
        return notes
    }
}

import Glibc
import SlateCore

/// A rig's work folder: the take files, their thumbnails and `takes.json`.
public struct TakeFolder: Sendable {
    /// Why the folder's manifest could not be read, or the folder not used.
    public enum Failure: Error, CustomStringConvertible {
        case system(SystemError)
        case manifest([Diagnostic])
        /// Another process holds the folder's lock; `holder` is what it wrote there.
        case busy(path: String, holder: String)
        case missing(path: String)

        public var description: String {
            switch self {
            case .system(let error): "\(error)"
            case .manifest(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
            case .busy(let path, let holder): "\(path) is in use by \(holder)"
            case .missing(let path): "\(path): the work folder does not exist"
            }
        }
    }

    public let path: String

    public init(path: String) { self.path = path }

    public var manifestPath: String { path + "/" + TakeManifest.fileName }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Whether the folder exists.
    public var exists: Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

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
        let fd = retryingInterrupts { open(reservePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw SystemError("create", path: reservePath) }
        defer { close(fd) }
        let status = posix_fallocate(fd, 0, off_t(bytes))
        if status != 0 {
            unlink(reservePath)
            throw SystemError("reserve space (fallocate)", path: reservePath, errno: status)
        }
    }

    /// Removes `take`'s file, its thumbnail and its manifest entry (the entry first,
    /// so a crash never leaves the manifest pointing at a missing file). Only that
    /// take's entry goes, even if another has the same id. When the manifest cannot
    /// be saved, nothing is removed.
    public func delete(_ take: TakeManifest.Take, from ledger: TakeLedger) throws(SystemError) {
        let removed = try ledger.change(undoIfUnsaved: true) { manifest -> Bool in
            guard let index = manifest.takes.firstIndex(of: take) else { return false }
            manifest.takes.remove(at: index)
            return true
        }
        guard removed else { return }
        try removeFiles(of: take)
    }

    /// Unlinks a take's file and thumbnail (gone already is fine), then syncs the folder.
    func removeFiles(of take: TakeManifest.Take) throws(SystemError) {
        for name in [take.file] + (take.thumbnail.map { [$0] } ?? []) where unlink(file(name)) != 0 && errno != ENOENT {
            throw SystemError("delete", path: file(name))
        }
        try FileSync.folder(of: file(take.file))
    }

    /// Finishes what a crash interrupted. A take marked recording is measured
    /// from its file and listed as finished, with its thumbnail if one was
    /// written; one whose file holds no frame leaves the list, and the file and
    /// thumbnail begun for it are removed (nothing was recorded); one that cannot
    /// be read now stays as it is. A take marked as held by a verified export
    /// has its files deleted and leaves the list. Returns what was done, for
    /// the log. Callers hold the folder's lock.
    public func recover(_ ledger: TakeLedger) -> [String] {
        var notes: [String] = []
        let snapshot = ledger.manifest
        guard snapshot.takes.contains(where: { $0.recording || $0.exported != nil }) else { return notes }
        var exported: [TakeManifest.Take] = []
        var measured = snapshot
        for index in measured.takes.indices.reversed() {
            let take = measured.takes[index]
            if let export = take.exported {
                exported.append(take)
                notes.append("\(file(take.file)) is in the verified export \(export): deleting it as the export began to")
                continue
            }
            guard take.recording else { continue }
            let path = file(take.file)
            let thumbnail = TakeManifest.thumbnailName(for: take.file)
            unlink(JPEGThumbnail.partialPath(for: file(thumbnail)))
            let probed = Result { () throws(MediaError) in try MediaProbe.probe(path: path) }
            var status = stat()
            if case .failure(let error) = probed, stat(path, &status) == 0, status.st_size >= 4096 {
                notes.append("\(path) was being recorded and cannot be measured now (\(error)); it stays listed as recording")
                continue
            }
            guard case .success(let info) = probed, info.frameCount > 0 else {
                // Nothing was recorded: the entry goes, and the file and thumbnail begun for it.
                measured.takes.remove(at: index)
                unlink(path)
                unlink(file(thumbnail))
                notes.append("\(path) was being recorded and holds no frame; it is removed")
                continue
            }
            measured.takes[index].recording = false
            measured.takes[index].frames = info.frameCount
            measured.takes[index].duration = .microseconds(info.durationMicroseconds)
            // The thumbnail is listed when the take closes: one written before a crash is its own.
            if take.thumbnail == nil, access(file(thumbnail), F_OK) == 0 {
                measured.takes[index].thumbnail = thumbnail
            }
            notes.append("recovered \(path): \(info.frameCount) frames, \(info.seconds) s")
        }
        do {
            try ledger.change { $0 = measured }
            for take in exported {
                try removeFiles(of: take)
                try ledger.change { manifest in manifest.takes.removeAll { $0.exported != nil && $0.file == take.file } }
            }
        } catch {
            notes.append("\(error)")
        }
        return notes
    }
}

/// The work folder's lock (`flock` on `.slate.lock`): one process at a time
/// records into a folder or changes its takes. The file says who holds it.
public final class TakeFolderLock {
    private let fd: Int32
    public let path: String

    /// Takes the lock for `holder` (e.g. `slate run (pid 4242)`), or says who has it.
    public init(_ folder: TakeFolder, holder: String) throws(TakeFolder.Failure) {
        guard folder.exists else { throw .missing(path: folder.path) }
        let path = folder.file(".slate.lock")
        self.path = path
        fd = retryingInterrupts { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        guard fd >= 0 else { throw .system(SystemError("open the lock", path: path)) }
        guard retryingInterrupts({ flock(fd, LOCK_EX | LOCK_NB) }) == 0 else {
            let error = SystemError("lock", path: path)
            let holder = (try? FileReading.text(atPath: path))?.split(separator: "\n").first.map(String.init)
            close(fd)
            guard error.errno == EWOULDBLOCK else { throw .system(error) }
            throw .busy(path: folder.path, holder: holder ?? "another process")
        }
        let line = Array((holder + "\n").utf8)
        if ftruncate(fd, 0) == 0 {
            _ = line.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
    }

    /// `slate NAME (pid N)`: who this process is, for the lock file.
    public static func holder(_ command: String) -> String { "slate \(command) (pid \(getpid()))" }

    deinit { close(fd) }
}

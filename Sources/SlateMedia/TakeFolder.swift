import SlateCore
import SlateSystem
import SystemPackage

/// A rig's work folder: the take files, their thumbnails and `takes.json`,
/// opened once and checked (`Folder`), every file created relative to it.
public struct TakeFolder: Sendable {
    /// Why the folder's manifest could not be read, or the folder not used.
    public enum Failure: Error, CustomStringConvertible {
        case system(OperationError)
        case manifest(JSONFileError)
        /// Another process holds the folder's lock; `holder` is what it wrote there.
        case busy(path: String, holder: String)
        case missing(path: String)
        /// The folder is not one Slate may write into.
        case folder(Folder.Failure)

        public var description: String {
            switch self {
            case .system(let error): "\(error)"
            case .manifest(let error): error.description
            case .busy(let path, let holder): "\(path) is in use by \(holder)"
            case .missing(let path): "\(path): the work folder does not exist"
            case .folder(let failure): "\(failure)"
            }
        }
    }

    public let directory: Folder
    /// Who may read the takes: the modes of the folder and of the files created in it.
    public let access: TakeAccess
    /// How long a deleted take waits in the trash (`TakeTrash`); 0: deleted at once.
    public var trashHours = TakeTrash.defaultHours

    /// Opens the work folder at `path`. With `create`, a missing folder is made,
    /// and the folder's mode is set to what `access` says (0700 for private takes).
    public init(path: String, create: Bool, access: TakeAccess = .private) throws(Failure) {
        do {
            directory = try Folder(path, creating: create ? access.folderMode : nil)
        } catch {
            if case .missing(let path) = error { throw .missing(path: path) }
            throw .folder(error)
        }
        self.access = access
        if create, directory.mode != access.folderMode {
            do {
                try directory.setMode(access.folderMode)
            } catch {
                throw .system(error)
            }
        }
    }

    public var path: String { directory.path }

    public var manifestPath: String { file(TakeManifest.fileName) }

    public func file(_ name: String) -> String { directory.file(name) }

    /// The manifest; an empty one when the folder has none yet.
    public func load() throws(Failure) -> TakeManifest {
        let text: String
        do {
            text = String(decoding: try directory.read(TakeManifest.fileName), as: UTF8.self)
        } catch {
            if error.errno == .noSuchFileOrDirectory { return TakeManifest() }
            throw .system(error)
        }
        switch TakeManifest.parse(text, file: manifestPath) {
        case .success(let manifest): return manifest
        case .failure(let error): throw .manifest(error)
        }
    }

    /// Saves the manifest. When the disk is full, the space `reserveSpace()` set
    /// aside is given up for it.
    public func save(_ manifest: TakeManifest) throws(OperationError) {
        let write = { () throws(OperationError) in
            try FileWriting.atomicWrite(manifest.json, to: TakeManifest.fileName, in: directory, mode: access.fileMode)
        }
        do {
            try write()
        } catch  where error.errno == .noSpace {
            guard case .success = Syscall.unlink(Self.reserveName, in: directory.fd) else { throw error }
            try write()
        }
    }

    /// The file holding space for the manifest, in case the takes fill the disk.
    static let reserveName = ".takes.reserve"

    /// Sets `bytes` aside for the manifest (once; again after `save` used them).
    public func reserveSpace(bytes: Int = 128 * 1024) throws(OperationError) {
        let fd: FileDescriptor
        do {
            fd = try directory.create(Self.reserveName, mode: 0o600)
        } catch  where error.errno == .fileExists {
            return
        }
        defer { try? fd.close() }
        do {
            try Syscall.allocate(fd, length: Int64(bytes)).value(
                "posix_fallocate", on: file(Self.reserveName), to: "reserve space")
        } catch {
            try? directory.remove(Self.reserveName)
            throw error
        }
    }

    /// Creates the new file `name` for a take or its thumbnail, with the folder's file mode.
    public func create(_ name: String) throws(OperationError) -> FileDescriptor {
        try directory.create(name, mode: access.fileMode)
    }

    /// Removes `take`'s file, its thumbnail and its manifest entry (the entry first,
    /// so a crash never leaves the manifest pointing at a missing file). Only that
    /// take's entry goes, even if another has the same id. When the manifest cannot
    /// be saved, nothing is removed.
    public func delete(_ take: TakeManifest.Take, from ledger: TakeLedger) throws(OperationError) {
        let removed = try ledger.change(undoIfUnsaved: true) { manifest -> Bool in
            guard let index = manifest.takes.firstIndex(of: take) else { return false }
            manifest.takes.remove(at: index)
            return true
        }
        guard removed else { return }
        try removeFiles(of: take)
    }

    /// Unlinks a take's file, thumbnail and proxy (gone already is fine), then syncs their folders.
    func removeFiles(of take: TakeManifest.Take) throws(OperationError) {
        try removeProxy(of: take, in: directory)
        for name in [take.file] + (take.thumbnail.map { [$0] } ?? []) { try directory.remove(name) }
        try directory.sync()
    }

    /// Finishes what a crash interrupted. A take marked recording is measured
    /// from its file and listed as finished, with its thumbnail if one was
    /// written; one whose file holds no frame leaves the list, and the file and
    /// thumbnail begun for it are removed (nothing was recorded); one that cannot
    /// be read now stays as it is. A take marked as held by a verified export
    /// (and not in the trash) has its files deleted and leaves the list; one
    /// in the trash whose files are still in the work folder has them moved there. Temporary files a crash left
    /// (the manifest's, a thumbnail's) are removed. Returns what was done, for
    /// the log. Callers hold the folder's lock.
    public func recover(_ ledger: TakeLedger) -> [String] {
        var notes: [String] = []
        for name in directory.names(withPrefix: "." + TakeManifest.fileName + ".tmp-") { try? directory.remove(name) }
        let snapshot = ledger.manifest
        // A take deleted to the trash whose files a crash left in the work folder.
        for take in snapshot.takes
        where take.trashed != nil
            && (Self.files(of: take).contains(where: directory.contains) || holdsProxy(of: take, in: directory))
        {
            do {
                try moveFiles(of: take, from: directory, to: try trashFolder())
                notes.append("moved \(file(take.file)) to the trash, as its deletion began to")
            } catch {
                notes.append("\(error)")
            }
        }
        guard snapshot.takes.contains(where: { $0.recording || ($0.exported != nil && $0.trashed == nil) }) else {
            return notes
        }
        var exported: [TakeManifest.Take] = []
        var measured = snapshot
        for index in measured.takes.indices.reversed() {
            let take = measured.takes[index]
            if let export = take.exported, take.trashed == nil {
                exported.append(take)
                notes.append("\(file(take.file)) is in the verified export \(export): deleting it as the export began to")
                continue
            }
            guard take.recording else { continue }
            let path = file(take.file)
            let thumbnail = TakeManifest.thumbnailName(for: take.file)
            for name in directory.names(withPrefix: JPEGThumbnail.partialPrefix(for: thumbnail)) { try? directory.remove(name) }
            let probed = Result { () throws(MediaError) in try MediaProbe.probe(take.file, in: directory) }
            if case .failure(let error) = probed, let status = directory.status(of: take.file), status.size >= 4096 {
                notes.append("\(path) was being recorded and cannot be measured now (\(error)); it stays listed as recording")
                continue
            }
            guard case .success(let info) = probed, info.frameCount > 0 else {
                // Nothing was recorded: the entry goes, and the files begun for it.
                measured.takes.remove(at: index)
                try? removeProxy(of: take, in: directory)
                try? directory.remove(take.file)
                try? directory.remove(thumbnail)
                notes.append("\(path) was being recorded and holds no frame; it is removed")
                continue
            }
            if take.proxy != nil, let (note, unlisted) = recoverProxy(of: take) {
                if unlisted { measured.takes[index].proxy = nil }
                notes.append(note)
            }
            measured.takes[index].recording = false
            measured.takes[index].summary.frames = info.frameCount
            measured.takes[index].summary.duration = .microseconds(info.durationMicroseconds)
            // The thumbnail is listed when the take closes: one written before a crash is its own.
            if take.thumbnail == nil, directory.contains(thumbnail) {
                measured.takes[index].thumbnail = thumbnail
            }
            notes.append("recovered \(path): \(info.frameCount) frames, \(info.seconds) s")
        }
        do {
            try ledger.change { $0 = measured }
            for take in exported {
                try removeFiles(of: take)
                try ledger.change { manifest in
                    manifest.takes.removeAll { $0.exported != nil && $0.trashed == nil && $0.file == take.file }
                }
            }
        } catch {
            notes.append("\(error)")
        }
        return notes
    }

    /// Checks the proxy of a take a crash interrupted: nil when it holds
    /// frames (it ends at its last complete fragment, as the take does); one
    /// that cannot be read now stays, as a take does; else its file is
    /// removed, and the note says so.
    private func recoverProxy(of take: TakeManifest.Take) -> (note: String, unlisted: Bool)? {
        guard let (folder, name) = proxy(of: take, in: directory), folder.contains(name) else {
            return ("the proxy of \(file(take.file)) was never written; the take is listed without one", true)
        }
        switch Result(catching: { () throws(MediaError) in try MediaProbe.probe(name, in: folder) }) {
        case .success(let info) where info.frameCount > 0: return nil
        case .failure(let error) where (folder.status(of: name)?.size ?? 0) >= 4096:
            return ("the proxy \(folder.file(name)) cannot be measured now (\(error)); it stays listed", false)
        default:
            try? folder.remove(name)
            return ("the proxy \(folder.file(name)) holds no frame; it is removed", true)
        }
    }
}

extension TakeAccess {
    /// The work folder's mode: 0700, 0750 or 0755.
    public var folderMode: UInt32 {
        switch self {
        case .private: 0o700
        case .group: 0o750
        case .everyone: 0o755
        }
    }

    /// The mode of takes, thumbnails and `takes.json`: 0600, 0640 or 0644.
    public var fileMode: UInt32 { folderMode & 0o666 }
}

/// The work folder's lock (`flock` on `.slate.lock`): one process at a time
/// records into a folder or changes its takes. The file says who holds it.
public final class TakeFolderLock {
    private let fd: FileDescriptor
    public let path: String

    /// Takes the lock for `holder` (e.g. `slate run (pid 4242)`), or says who has it.
    public init(_ folder: TakeFolder, holder: String) throws(TakeFolder.Failure) {
        let path = folder.file(".slate.lock")
        self.path = path
        do {
            fd = try folder.directory.openForUpdate(".slate.lock", mode: 0o600)
        } catch {
            throw .system(error)
        }
        if case .failure(let errno) = Syscall.lockExclusively(fd) {
            let text = try? FileReading.bytes(of: fd, path: path)
            let holder = text.flatMap { String(decoding: $0, as: UTF8.self).split(separator: "\n").first.map(String.init) }
            try? fd.close()
            guard errno == .wouldBlock else {
                throw .system(OperationError("lock", cause: SystemCallError("flock", subject: path, errno: errno)))
            }
            throw .busy(path: folder.path, holder: holder ?? "another process")
        }
        let line = Array((holder + "\n").utf8)
        if case .success = Syscall.truncate(fd, to: 0) {
            _ = try? line.withUnsafeBytes { try fd.write(toAbsoluteOffset: 0, $0) }
        }
    }

    /// `slate NAME (pid N)`: who this process is, for the lock file.
    public static func holder(_ command: String) -> String { "slate \(command) (pid \(Syscall.processID))" }

    deinit { try? fd.close() }
}

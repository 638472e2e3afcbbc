import Glibc
import SystemPackage

/// A folder Slate writes into, opened once (`O_DIRECTORY|O_NOFOLLOW`) and checked
/// as OpenSSH checks a user's files: it belongs to this user and no other user can
/// write to it. Every file is then created relative to the descriptor, never
/// through a link, under a name that is new (`O_EXCL`) or unpredictable, so no
/// one can plant a name for Slate to write through.
public final class Folder: Sendable {
    /// The folder as named, for messages.
    public let path: String
    public let fd: FileDescriptor

    /// Why a folder cannot be used.
    public enum Failure: Error, CustomStringConvertible {
        case system(OperationError)
        case missing(path: String)
        /// A symbolic link where the folder should be.
        case link(path: String)
        case notOwned(path: String, owner: String)
        case writableByOthers(path: String, mode: mode_t)

        public var description: String {
            switch self {
            case .system(let error): "\(error)"
            case .missing(let path): "\(path): the folder does not exist"
            case .link(let path):
                "\(path): is a symbolic link; Slate writes only into a real folder: name the folder it points to"
            case .notOwned(let path, let owner):
                "\(path): belongs to \(owner), not to you; another user could replace what Slate writes there: "
                    + "choose a folder of your own (the default is in ~/Videos/Slate)"
            case .writableByOthers(let path, let mode):
                "\(path): other users can write to it (mode \(Folder.octal(mode & 0o7777))); they could plant files "
                    + "for Slate to write through: run 'chmod go-w \(path)' or choose a folder of your own"
            }
        }
    }

    /// Opens the folder at `path`, checked. With `creating`, a missing folder is
    /// made with that mode (and missing parents with 0755; the umask applies).
    public init(_ path: String, creating mode: mode_t? = nil) throws(Failure) {
        self.path = path
        if let mode { try Self.makeFolders(path, mode: mode) }
        let fd: FileDescriptor
        let options: FileDescriptor.OpenOptions = [.directory, .noFollow, .closeOnExec]
        switch errnoResult({ try FileDescriptor.open(FilePath(path), .readOnly, options: options) }) {
        case .success(let opened): fd = opened
        case .failure(.noSuchFileOrDirectory): throw .missing(path: path)
        case .failure(.tooManySymbolicLinkLevels): throw .link(path: path)
        case .failure(.notDirectory) where Self.isLink(path): throw .link(path: path)
        case .failure(let errno):
            throw .system(OperationError("open the folder", cause: SystemCallError("open", subject: path, errno: errno)))
        }
        let status: Stat
        do {
            status = try errnoResult { try fd.stat() }.value("fstat", on: path, to: "examine the folder")
        } catch {
            try? fd.close()
            throw .system(error)
        }
        guard status.userID.rawValue == geteuid() else {
            try? fd.close()
            throw .notOwned(path: path, owner: Self.userName(status.userID.rawValue))
        }
        let mode = status.mode.rawValue
        guard mode & 0o002 == 0, mode & 0o020 == 0 || Self.isPrivateGroup(status.groupID.rawValue) else {
            try? fd.close()
            throw .writableByOthers(path: path, mode: mode)
        }
        self.fd = fd
    }

    deinit { try? fd.close() }

    /// The path of the file `name` in the folder, for messages and for reading.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The folder's permission bits.
    public var mode: mode_t {
        (try? fd.stat().mode.permissions.rawValue) ?? 0
    }

    /// Sets the folder's permission bits.
    public func setMode(_ mode: mode_t) throws(OperationError) {
        try Syscall.setMode(fd, FilePermissions(rawValue: mode)).value("fchmod", on: path, to: "change the mode of the folder")
    }

    /// Fails unless this user may create files in the folder (a read-only mount,
    /// a folder without write permission).
    public func checkWritable() throws(OperationError) {
        try Syscall.checkWritable(fd).value("faccessat", on: path, to: "write to the folder")
    }

    /// The bytes still free for this process on the folder's file system.
    public func freeBytes() throws(OperationError) -> Int64 {
        try Syscall.freeBytes(fd).value("fstatvfs", on: path, to: "measure the free space")
    }

    /// Creates `name`, which must not exist (a link under that name is not followed),
    /// for writing and reading back (an MP4 muxer moving its index to the front).
    public func create(_ name: String, mode: mode_t) throws(OperationError) -> FileDescriptor {
        try Syscall.open(
            name, in: fd, .readWrite, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
            permissions: FilePermissions(rawValue: mode)
        ).value("openat", on: file(name), to: "create")
    }

    /// Creates a file named `prefix` and 16 random letters and digits, as `create` does.
    public func createUnique(prefix: String, mode: mode_t) throws(OperationError) -> (name: String, fd: FileDescriptor) {
        while true {
            let name = prefix + Self.randomName()
            do {
                return (name, try create(name, mode: mode))
            } catch  where error.errno == .fileExists {
                continue
            }
        }
    }

    /// Opens `name` for reading; a link is not followed.
    public func openForReading(_ name: String) throws(OperationError) -> FileDescriptor {
        try Syscall.open(name, in: fd, .readOnly, options: [.noFollow, .closeOnExec]).value(
            "openat", on: file(name), to: "open")
    }

    /// Opens `name` for reading and writing, creating it when missing; a link is not followed.
    public func openForUpdate(_ name: String, mode: mode_t) throws(OperationError) -> FileDescriptor {
        try Syscall.open(
            name, in: fd, .readWrite, options: [.create, .noFollow, .closeOnExec], permissions: FilePermissions(rawValue: mode)
        ).value("openat", on: file(name), to: "open")
    }

    /// The bytes of the file `name`.
    public func read(_ name: String) throws(OperationError) -> [UInt8] {
        let fd = try openForReading(name)
        defer { try? fd.close() }
        return try FileReading.bytes(of: fd, path: file(name))
    }

    /// What `name` is, without following a link; nil when there is no such entry.
    public func status(of name: String) -> Stat? {
        try? Stat(FilePath(name), relativeTo: fd, flags: .symlinkNoFollow)
    }

    /// What tells one version of the file `name` from the next (its inode,
    /// size and change time): a file replaced or rewritten gets another.
    public func version(of name: String) -> FileVersion? {
        guard let status = status(of: name) else { return nil }
        let changed = status.st_ctim
        return FileVersion(
            inode: UInt64(status.inode.rawValue), size: status.size,
            changed: Int64(changed.tv_sec) * 1_000_000_000 + Int64(changed.tv_nsec))
    }

    /// Whether the folder has an entry `name` (a link counts, followed or not).
    public func contains(_ name: String) -> Bool { status(of: name) != nil }

    /// The names in the folder that start with `prefix`.
    public func names(withPrefix prefix: String) -> [String] {
        guard let copy = try? fd.duplicate() else { return [] }
        guard let listing = fdopendir(copy.rawValue) else {
            try? copy.close()
            return []
        }
        defer { closedir(listing) }
        rewinddir(listing)
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix) { names.append(name) }
        }
        return names
    }

    /// Removes `name`; one that is gone already is fine.
    public func remove(_ name: String) throws(OperationError) {
        switch Syscall.unlink(name, in: fd) {
        case .success, .failure(.noSuchFileOrDirectory): return
        case .failure(let errno):
            throw OperationError("delete", cause: SystemCallError("unlinkat", subject: file(name), errno: errno))
        }
    }

    /// Renames `name` to `newName`, replacing a file that has it.
    public func rename(_ name: String, to newName: String) throws(OperationError) {
        try Syscall.rename(name, to: newName, in: fd).value("renameat", on: file(newName), to: "replace")
    }

    /// Renames `name` to `newName` unless an entry has that name (then false).
    public func renameIfFree(_ name: String, to newName: String) throws(OperationError) -> Bool {
        switch Syscall.renameNoReplace(name, to: newName, in: fd) {
        case .success: return true
        case .failure(.fileExists): return false
        case .failure(let errno):
            throw OperationError("rename \(name) to", cause: SystemCallError("renameat2", subject: file(newName), errno: errno))
        }
    }

    /// Moves `name` into `destination` (a folder of the same file system)
    /// under the same name, unless an entry there has it (then false).
    public func moveIfFree(_ name: String, to destination: Folder) throws(OperationError) -> Bool {
        switch Syscall.renameNoReplace(name, in: fd, to: name, in: destination.fd) {
        case .success: return true
        case .failure(.fileExists): return false
        case .failure(let errno):
            throw OperationError(
                "move \(file(name)) to", cause: SystemCallError("renameat2", subject: destination.file(name), errno: errno))
        }
    }

    /// Runs `body` holding an exclusive `flock` on the file `name` (made with
    /// mode 0600 when missing), waiting for another process that holds it:
    /// what several processes read, change and write again, one at a time.
    public func whileLocked<T>(_ name: String, _ body: () throws -> T) throws -> T {
        let fd = try openForUpdate(name, mode: 0o600)
        defer { try? fd.close() }
        try Syscall.lockExclusivelyWaiting(fd).value("flock", on: file(name), to: "lock")
        return try body()
    }

    /// Flushes the folder's entries to disk, so new and renamed names survive a power loss.
    public func sync() throws(OperationError) {
        try Syscall.sync(fd).value("fsync", on: path, to: "fsync the folder")
    }

    /// A file's path as its folder and its name: `.` for a bare name.
    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Creates `path` and its parents if they do not exist: the last one with
    /// `mode`, the parents with 0755.
    package static func makeFolders(_ path: String, mode: mode_t) throws(Failure) {
        let components = path.split(separator: "/")
        var current = path.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            current += "/" + component
            let last = index == components.count - 1
            switch Syscall.makeFolder(current, FilePermissions(rawValue: last ? mode : 0o755)) {
            case .success, .failure(.fileExists): continue
            case .failure(let errno):
                let cause = SystemCallError("mkdir", subject: current, errno: errno)
                throw .system(OperationError("create the folder", cause: cause))
            }
        }
    }

    private static func isLink(_ path: String) -> Bool {
        (try? Stat(FilePath(path), flags: .symlinkNoFollow))?.type == .symbolicLink
    }

    /// A user private group, as Debian's OpenSSH allows group write for: the
    /// user's own primary group, with no other member.
    private static func isPrivateGroup(_ gid: gid_t) -> Bool {
        guard gid == getegid(), let group = getgrgid(gid), let user = getpwuid(geteuid()) else { return false }
        let name = String(cString: user.pointee.pw_name)
        guard String(cString: group.pointee.gr_name) == name else { return false }
        var member = group.pointee.gr_mem
        while let pointer = member?.pointee {
            if String(cString: pointer) != name { return false }
            member = member?.successor()
        }
        return true
    }

    private static func userName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid) else { return "user \(uid)" }
        return "user \(uid) (\(String(cString: entry.pointee.pw_name)))"
    }

    /// 16 letters and digits from getrandom(2): about 95 bits no one can guess.
    private static func randomName() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeMutableBytes { Syscall.fillRandom($0) }
        return String(decoding: bytes.map { alphabet[Int($0) % alphabet.count] }, as: UTF8.self)
    }

    package static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A version of a file, as `Folder.version(of:)` tells it.
public struct FileVersion: Hashable, Sendable {
    public var inode: UInt64
    public var size: Int64
    /// The inode's change time, in nanoseconds since 1970.
    public var changed: Int64
}

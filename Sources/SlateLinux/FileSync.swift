import Glibc

/// fsync for files written through another API (libav): the file's data, then
/// its folder's entry, so both survive a power loss.
public enum FileSync {
    /// Flushes the file at `path` to disk.
    public static func file(_ path: String) throws(SystemError) {
        try sync(path, flags: O_RDONLY | O_CLOEXEC, what: "fsync the file")
    }

    /// Flushes the folder holding `path`, so a new file's name is on disk too.
    public static func folder(of path: String) throws(SystemError) {
        let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        try sync(folder.isEmpty ? "/" : folder, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, what: "fsync the folder")
    }

    private static func sync(_ path: String, flags: Int32, what: String) throws(SystemError) {
        let fd = retryingInterrupts { open(path, flags) }
        guard fd >= 0 else { throw SystemError("open for \(what)", path: path) }
        defer { close(fd) }
        guard retryingInterrupts({ fsync(fd) }) == 0 else { throw SystemError(what, path: path) }
    }
}

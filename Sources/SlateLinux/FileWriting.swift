import CSlateShim
import Glibc

/// Writes that survive a crash or power loss: a temporary file, fsync, rename
/// over the old file, and fsync of the folder.
public enum FileWriting {
    public static func atomicWrite(_ text: String, toPath path: String) throws(SystemError) {
        let (temporary, fd) = try TemporaryFile.open(path + ".tmp-")
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { raw in
                retryingInterrupts { write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            if written <= 0 {
                let error = SystemError("write", path: temporary)
                close(fd)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        bytes.removeAll()
        if retryingInterrupts({ fsync(fd) }) != 0 {
            let error = SystemError("write (fsync)", path: temporary)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = SystemError("replace", path: path)
            unlink(temporary)
            throw error
        }
        try FileSync.folder(of: path)
    }

    /// Creates `path` and its parents (mode 0755) if they do not exist.
    public static func makeFolders(_ path: String) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw SystemError("create folder", path: current) }
        }
    }
}

/// Files created under a name no other file has (`mkostemp`): the prefix and
/// six random characters, mode 0600.
public enum TemporaryFile {
    /// Creates the file and returns its path and an open descriptor (close-on-exec).
    public static func open(_ prefix: String) throws(SystemError) -> (path: String, fd: Int32) {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { slate_mkostemp($0.baseAddress!, O_CLOEXEC) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else { throw SystemError("create", path: path) }
        return (path, fd)
    }

    /// Creates the file in `folder`, closed, and returns its path.
    public static func create(in folder: String, prefix: String) throws(SystemError) -> String {
        let (path, fd) = try open(folder + "/" + prefix)
        close(fd)
        return path
    }
}

/// CLOCK_REALTIME, for the wall-clock start of takes.
public enum WallClock {
    public static func microseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }
}

/// The rig's folders as the user names them: `~` is the home folder.
public enum UserPath {
    public static func expand(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        let home = getenv("HOME").map { String(cString: $0) } ?? "/"
        return home + path.dropFirst()
    }

    /// Where takes are recorded unless the profile or `--work` says otherwise.
    public static let defaultWork = "~/Videos/Slate/takes"
    /// Where exports go unless the profile or `--output` says otherwise.
    public static let defaultOutput = "~/Videos/Slate"
}

import Glibc

/// Writes that survive a crash or power loss: a temporary file, fsync, rename
/// over the old file, and fsync of the folder.
public enum FileWriting {
    public static func atomicWrite(_ text: String, toPath path: String) throws(SystemError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError("create", path: temporary) }
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
        if fsync(fd) != 0 {
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

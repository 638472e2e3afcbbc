import Glibc
import SystemPackage

/// Writes that survive a crash or power loss: a file of its own with an
/// unpredictable name, fsync, rename over the old file, and fsync of the folder.
public enum FileWriting {
    /// Replaces `name` in `folder` with `text`; the file gets `mode`. Errors name `name`.
    public static func atomicWrite(_ text: String, to name: String, in folder: Folder, mode: mode_t) throws(OperationError) {
        do {
            try replace(name, in: folder, with: Array(text.utf8), mode: mode, temporaryPrefix: "." + name + ".tmp-")
        } catch {
            var named = error
            named.cause.subject = folder.file(name)
            throw named
        }
    }

    /// Replaces `name` in `folder` with `bytes` through a temporary file named
    /// `temporaryPrefix` and random letters; the file gets `mode`.
    public static func replace(
        _ name: String, in folder: Folder, with bytes: [UInt8], mode: mode_t, temporaryPrefix: String
    ) throws(OperationError) {
        let (temporary, fd) = try folder.createUnique(prefix: temporaryPrefix, mode: mode)
        let written = Result { () throws(OperationError) in
            try writeAll(bytes, to: fd, path: folder.file(temporary))
            try Syscall.sync(fd).value("fsync", on: folder.file(temporary), to: "write")
        }
        try? fd.close()
        do {
            try written.get()
            try folder.rename(temporary, to: name)
        } catch {
            try? folder.remove(temporary)
            throw error
        }
        try folder.sync()
    }

    /// Writes every byte of `bytes` to `fd` (named `path` in errors).
    public static func writeAll(_ bytes: [UInt8], to fd: FileDescriptor, path: String) throws(OperationError) {
        var offset = 0
        while offset < bytes.count {
            let written = try bytes.withUnsafeBytes { raw in
                errnoResult { try fd.write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }.value("write", on: path, to: "write")
            guard written > 0 else {
                throw OperationError("write", cause: SystemCallError("write", subject: path, errno: .ioError))
            }
            offset += written
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

    /// Slate's state folder (`$XDG_STATE_HOME/slate`, or `~/.local/state/slate`), where presets are kept.
    public static var state: String {
        if let base = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), base.hasPrefix("/") { return base + "/slate" }
        return expand("~/.local/state/slate")
    }

    /// The rig's profile when a command is given none: `$XDG_CONFIG_HOME/slate/rig.yaml`,
    /// or `~/.config/slate/rig.yaml` (where the systemd unit reads it).
    public static var defaultProfile: String {
        if let base = getenv("XDG_CONFIG_HOME").map({ String(cString: $0) }), base.hasPrefix("/") {
            return base + "/slate/rig.yaml"
        }
        return expand("~/.config/slate/rig.yaml")
    }

    /// Where takes are recorded unless the profile or `--work` says otherwise.
    public static let defaultWork = "~/Videos/Slate/takes"
    /// Where exports go unless the profile or `--output` says otherwise.
    public static let defaultOutput = "~/Videos/Slate"
}

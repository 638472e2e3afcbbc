import Glibc

/// Whole-file reads with errors that name the path.
public enum FileReading {
    /// The bytes of the file at `path` (`-` is standard input).
    public static func bytes(atPath path: String) throws(SystemError) -> [UInt8] {
        let fd: Int32 = path == "-" ? STDIN_FILENO : retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw SystemError("open", path: path) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        return try bytes(of: fd, path: path)
    }

    /// The bytes of the open file `fd` (named `path` in errors), from where it stands.
    public static func bytes(of fd: Int32, path: String) throws(SystemError) -> [UInt8] {
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw SystemError("read", path: path, errno: EISDIR)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(info.st_size > 0 ? Int(info.st_size) : 65536)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingInterrupts { read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { throw SystemError("read", path: path) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The file's text, decoded as UTF-8 (invalid bytes become U+FFFD).
    public static func text(atPath path: String) throws(SystemError) -> String {
        String(decoding: try bytes(atPath: path), as: UTF8.self)
    }
}

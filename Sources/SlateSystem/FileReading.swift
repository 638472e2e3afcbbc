import SystemPackage

/// Whole-file reads with errors that name the path. Every read has a budget:
/// a file larger than its `limit` is refused, never read into memory whole,
/// and a path that is not a regular file (a FIFO, `/dev/zero`) is refused
/// without waiting on it.
public enum FileReading {
    /// The largest file read when a caller names no budget of its own.
    public static let defaultLimit = 64 << 20

    /// The bytes of the regular file at `path` (`-` is standard input, read as it comes).
    public static func bytes(atPath path: String, limit: Int = defaultLimit) throws(OperationError) -> [UInt8] {
        if path == "-" { return try bytes(of: .standardInput, path: path, limit: limit) }
        let (fd, status) = try openRegularFile(atPath: path, limit: limit)
        defer { try? fd.close() }
        return try read(fd, status: status, path: path, limit: limit)
    }

    /// The size of the regular file at `path` (not followed through a link);
    /// nil when there is none.
    public static func size(atPath path: String) -> Int64? {
        guard let status = try? Stat(FilePath(path), flags: .symlinkNoFollow), status.type == .regular else { return nil }
        return status.size
    }

    /// The regular file at `path` opened for reading, once its size is known to
    /// be within `limit`, for a reader of its own (libav); the caller closes it.
    public static func open(atPath path: String, limit: Int) throws(OperationError) -> FileDescriptor {
        let (fd, status) = try openRegularFile(atPath: path, limit: limit)
        guard Int(status.size) <= limit else {
            try? fd.close()
            throw tooLarge(path, limit: limit)
        }
        return fd
    }

    private static func openRegularFile(atPath path: String, limit: Int) throws(OperationError) -> (FileDescriptor, Stat) {
        let fd = try errnoResult {
            try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        }.value("open", on: path, to: "open")
        let status = try? fd.stat()
        guard let status, status.type == .regular else {
            try? fd.close()
            throw OperationError(
                "read",
                cause: SystemCallError(
                    "read", subject: path, errno: status?.type == .directory ? .isDirectory : .invalidArgument),
                note: "only a regular file is read, not a FIFO or a device")
        }
        return (fd, status)
    }

    /// The bytes of the open file `fd` (named `path` in errors), from where it stands.
    public static func bytes(of fd: FileDescriptor, path: String, limit: Int = defaultLimit) throws(OperationError) -> [UInt8] {
        try read(fd, status: try? fd.stat(), path: path, limit: limit)
    }

    /// Reads `fd`, whose `status` was read once by the caller, within `limit`.
    private static func read(_ fd: FileDescriptor, status: Stat?, path: String, limit: Int) throws(OperationError) -> [UInt8] {
        if status?.type == .directory {
            throw OperationError("read", cause: SystemCallError("read", subject: path, errno: .isDirectory))
        }
        if let size = status.map({ Int($0.size) }), size > limit {
            throw tooLarge(path, limit: limit)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(status.map { $0.size > 0 ? Int($0.size) : 65536 } ?? 65536)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                errnoResult { try fd.read(into: buffer) }
            }.value("read", on: path, to: "read")
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw tooLarge(path, limit: limit) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The file's text, decoded as UTF-8 (invalid bytes become U+FFFD).
    public static func text(atPath path: String, limit: Int = defaultLimit) throws(OperationError) -> String {
        String(decoding: try bytes(atPath: path, limit: limit), as: UTF8.self)
    }

    /// `65536 bytes`, `1 MiB`: a budget as the docs state it.
    public static func sizeText(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0
            ? "\(bytes >> 20) MiB" : bytes >= 1024 && bytes % 1024 == 0 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }

    private static func tooLarge(_ path: String, limit: Int) -> OperationError {
        OperationError(
            "read", cause: SystemCallError("read", subject: path, errno: .fileTooLarge),
            note: "at most \(sizeText(limit)) is read")
    }
}

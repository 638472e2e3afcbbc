import SystemPackage

/// Whole-file reads with errors that name the path.
public enum FileReading {
    /// The bytes of the file at `path` (`-` is standard input).
    public static func bytes(atPath path: String) throws(OperationError) -> [UInt8] {
        if path == "-" { return try bytes(of: .standardInput, path: path) }
        let fd = try errnoResult { try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) }.value(
            "open", on: path, to: "open")
        defer { try? fd.close() }
        return try bytes(of: fd, path: path)
    }

    /// The bytes of the open file `fd` (named `path` in errors), from where it stands.
    public static func bytes(of fd: FileDescriptor, path: String) throws(OperationError) -> [UInt8] {
        let status = try? fd.stat()
        if status?.type == .directory {
            throw OperationError("read", cause: SystemCallError("read", subject: path, errno: .isDirectory))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(status.map { $0.size > 0 ? Int($0.size) : 65536 } ?? 65536)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer in
                errnoResult { try fd.read(into: buffer) }
            }.value("read", on: path, to: "read")
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// The file's text, decoded as UTF-8 (invalid bytes become U+FFFD).
    public static func text(atPath path: String) throws(OperationError) -> String {
        String(decoding: try bytes(atPath: path), as: UTF8.self)
    }
}

import SystemPackage

/// Buffered writes to a file descriptor (standard output by default), flushed
/// when asked and when the buffer fills. A closed pipe ends the writes quietly.
public final class OutputStream {
    private let fd: FileDescriptor
    private var buffer: [UInt8] = []
    public private(set) var closed = false

    public init(fd: FileDescriptor = .standardOutput) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func writeLine(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        guard !closed else { return buffer.removeAll(keepingCapacity: true) }
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                errnoResult { try fd.write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            guard case .success(let count) = written, count > 0 else {
                closed = true
                break
            }
            offset += count
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension OutputStream {
    /// Writes `text` to `fd` at once, without adding a newline.
    public static func writeRaw(_ text: String, fd: FileDescriptor) {
        let stream = OutputStream(fd: fd)
        stream.buffer.append(contentsOf: text.utf8)
        stream.flush()
    }

    /// Writes one line to standard error at once (unbuffered).
    public static func writeError(_ line: String) {
        let stream = OutputStream(fd: .standardError)
        stream.writeLine(line)
        stream.flush()
    }
}

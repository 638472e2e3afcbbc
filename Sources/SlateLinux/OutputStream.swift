import Glibc

/// Buffered writes to a file descriptor (standard output by default), flushed
/// when asked and when the buffer fills. A closed pipe ends the writes quietly.
public final class OutputStream {
    private let fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var closed = false

    public init(fd: Int32 = STDOUT_FILENO) {
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
                retryingInterrupts { write(fd, raw.baseAddress! + offset, raw.count - offset) }
            }
            if written <= 0 {
                closed = true
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension OutputStream {
    /// Writes `text` to `fd` at once, without adding a newline.
    public static func writeRaw(_ text: String, fd: Int32) {
        let stream = OutputStream(fd: fd)
        stream.buffer.append(contentsOf: text.utf8)
        stream.flush()
    }

    /// Writes one line to standard error at once (unbuffered).
    public static func writeError(_ line: String) {
        let stream = OutputStream(fd: STDERR_FILENO)
        stream.writeLine(line)
        stream.flush()
    }
}

import SlateCore
import SystemPackage

/// Buffered writes to a file descriptor (standard output by default), flushed
/// when asked and when the buffer fills. A closed pipe ends the writes quietly.
/// With a `LineWriter`, a flush hands the lines to its thread instead of
/// writing them, so a slow reader never holds up the caller.
public final class OutputStream {
    private let fd: FileDescriptor
    private let writer: LineWriter?
    private var buffer: [UInt8] = []
    private var lines = 0
    public private(set) var closed = false

    public init(fd: FileDescriptor = .standardOutput) {
        self.fd = fd
        writer = nil
        buffer.reserveCapacity(1 << 16)
    }

    /// Lines written by `writer`'s thread.
    public init(writer: LineWriter) {
        fd = .standardOutput
        self.writer = writer
        buffer.reserveCapacity(1 << 16)
    }

    deinit { flush() }

    public func writeLine(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        lines += 1
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        if let writer {
            if !buffer.isEmpty { writer.write(buffer, lines: lines) }
            buffer.removeAll(keepingCapacity: true)
            lines = 0
            return
        }
        lines = 0
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

    /// Writes one line to standard error at once (unbuffered); an error's
    /// priority (`<3>`) first when standard error is the journal.
    public static func writeError(_ line: String) {
        let stream = OutputStream(fd: .standardError)
        stream.writeLine(errorPriority + line)
        stream.flush()
    }

    /// A profile's diagnostics on standard error, one line each, their
    /// severities coloured when it takes colour.
    public static func writeDiagnostics(_ diagnostics: [Diagnostic]) {
        let color = Terminal.takesColor(.standardError)
        for diagnostic in diagnostics {
            writeError(color ? TerminalColor.paint(diagnostic) : diagnostic.description)
        }
    }

    /// `<3>` when standard error is the journal, read once.
    private static let errorPriority = Syscall.standardErrorIsJournal ? "<3>" : ""
}

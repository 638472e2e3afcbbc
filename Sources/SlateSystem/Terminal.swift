import Glibc
import SlateCore
import SystemPackage

/// Whether output goes to a terminal, to draw in place there and write plain lines elsewhere.
public enum Terminal {
    /// `isatty(fd)`.
    public static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

    /// Whether output to `fd` can be drawn over in place (`\r`, erasing the
    /// line): a terminal whose `TERM` is not `dumb`.
    public static func drawsInPlace(_ fd: FileDescriptor) -> Bool {
        isTerminal(fd) && Syscall.environmentValue("TERM") != "dumb"
    }

    /// Whether output to `fd` is coloured (`TerminalColor.wanted`: a terminal, no `NO_COLOR`, `TERM` not `dumb`).
    public static func takesColor(_ fd: FileDescriptor) -> Bool {
        TerminalColor.wanted(
            isTerminal: isTerminal(fd), noColor: Syscall.environmentValue("NO_COLOR"), term: Syscall.environmentValue("TERM"))
    }

    /// The local time now as the log writes it: `2026-11-27T09:18:52+0000`.
    public static func logTimestamp() -> String { localTime(Int64(time(nil)), format: "%Y-%m-%dT%H:%M:%S%z") }

    /// `seconds` since 1970 in local time, as strftime's `format` writes it.
    public static func localTime(_ seconds: Int64, format: String) -> String {
        var moment = time_t(seconds)
        var parts = tm()
        localtime_r(&moment, &parts)
        var text = [CChar](repeating: 0, count: 64)
        let count = strftime(&text, text.count, format, &parts)
        return String(decoding: text.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

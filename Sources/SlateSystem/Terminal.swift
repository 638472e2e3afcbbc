import Glibc
import SystemPackage

/// Whether output goes to a terminal, to draw in place there and write plain lines elsewhere.
public enum Terminal {
    /// `isatty(fd)`.
    public static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }
}

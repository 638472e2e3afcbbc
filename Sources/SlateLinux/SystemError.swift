import Glibc

/// A failed system call: the operation, the path or device it was about, and errno.
public struct SystemError: Error, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var errno: Int32

    public init(_ operation: String, path: String, errno: Int32 = Glibc.errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The failure without the path: `cannot open: No such file or directory`.
    public var reason: String { "cannot \(operation): \(String(cString: strerror(errno)))" }

    public var description: String { "\(path): \(reason)" }
}

/// Retries a system call interrupted by a signal (EINTR).
@inline(__always)
func retryingInterrupts<T: BinaryInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}

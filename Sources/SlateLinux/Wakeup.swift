import CSlateShim
import Glibc

/// Wakes an event loop from another thread: an eventfd the loop watches.
public final class Wakeup: @unchecked Sendable {
    public let fd: Int32

    public init() throws(SystemError) {
        fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw SystemError("create a wake-up descriptor (eventfd)", path: "eventfd") }
    }

    deinit { close(fd) }

    /// Makes `fd` readable (from any thread).
    public func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Makes `fd` unreadable again (on the loop).
    public func clear() {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
    }
}

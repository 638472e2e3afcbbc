import SystemPackage

/// Wakes an event loop from another thread: an eventfd the loop watches.
public final class Wakeup: Sendable {
    public let fd: FileDescriptor

    public init() throws(OperationError) {
        fd = try Syscall.eventDescriptor().value("eventfd", to: "create a wake-up descriptor")
    }

    deinit { try? fd.close() }

    /// Makes `fd` readable (from any thread).
    public func signal() {
        _ = Syscall.addToCounter(fd, 1)
    }

    /// Makes `fd` unreadable again (on the loop).
    public func clear() {
        _ = Syscall.readCounter(fd)
    }

    /// Waits until `fd` is readable, without a loop of one's own.
    public func wait() {
        _ = Syscall.pollInputs([fd], timeout: -1)
    }
}

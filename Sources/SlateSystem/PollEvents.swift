import CSlateShim
import Glibc

/// What `poll` or epoll waits for on a descriptor (`input`, `priority`), and
/// what it found there (those, or `error` and `hangUp`, which are always reported).
public struct PollEvents: OptionSet, Hashable, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// Readable: data, a frame, a connection (POLLIN).
    public static let input = PollEvents(rawValue: Int16(POLLIN))
    /// Writable without blocking: a pipe has room for PIPE_BUF bytes (POLLOUT).
    public static let output = PollEvents(rawValue: Int16(POLLOUT))
    /// Urgent data: on a V4L2 device, an event to dequeue (POLLPRI).
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    /// The descriptor reports an error (POLLERR).
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The other end hung up (POLLHUP).
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))

    /// The same events as epoll's flags: `input` with EPOLLRDHUP, so a hung-up peer wakes it too.
    var epoll: UInt32 {
        var flags: UInt32 = 0
        if contains(.input) { flags |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if contains(.priority) { flags |= EPOLLPRI.rawValue }
        return flags
    }
}

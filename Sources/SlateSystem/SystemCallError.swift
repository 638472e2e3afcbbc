import CSlateShim
import SystemPackage

/// A failed system call: the call as its manual names it (`open`, `VIDIOC_DQBUF`,
/// `epoll_wait`), the device or path it was about when there is one, and errno.
public struct SystemCallError: Error, Equatable, CustomStringConvertible {
    public var operation: String
    public var subject: String?
    public var errno: Errno

    public init(_ operation: String, subject: String? = nil, errno: Errno) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    /// errno in words and by name: `No such device (ENODEV)`.
    public var reason: String {
        guard let name = slate_errno_name(errno.rawValue) else { return errno.description }
        return "\(errno.description) (\(String(cString: name)))"
    }

    /// `/dev/video0: VIDIOC_DQBUF: No such device (ENODEV)`.
    public var description: String { (subject.map { "\($0): " } ?? "") + "\(operation): \(reason)" }
}

/// What Slate could not do, in words (`grab`, `wait for events`), and the
/// system call that failed (`cause`).
public struct OperationError: Error, CustomStringConvertible {
    public var action: String
    public var cause: SystemCallError
    /// What the user should know beyond errno (`at most 1 MiB is read`).
    public var note: String?

    public init(_ action: String, cause: SystemCallError, note: String? = nil) {
        self.action = action
        self.cause = cause
        self.note = note
    }

    /// The device or path, from the cause.
    public var subject: String? { cause.subject }
    public var errno: Errno { cause.errno }

    /// Whether the system refused it for want of permission (EACCES or EPERM).
    public var isPermissionDenied: Bool { errno == .permissionDenied || errno == .notPermitted }

    /// The failure without its subject: `cannot grab: EVIOCGRAB: Device or resource busy (EBUSY)`;
    /// the call is left out when the action is its name (`cannot open: ...`).
    public var reason: String {
        "cannot \(action): " + (cause.operation == action ? "" : cause.operation + ": ") + cause.reason
            + (note.map { ": \($0)" } ?? "")
    }

    public var description: String { (subject.map { "\($0): " } ?? "") + reason }
}

extension Errno {
    /// ENODEV: the device went away (unplugged, its driver unbound). swift-system
    /// calls it `operationNotSupportedByDevice`.
    public static var noSuchDevice: Errno { .operationNotSupportedByDevice }
}

extension Result where Failure == Errno {
    /// The value, or the failure as the system call `operation` on `subject`.
    package func value(_ operation: String, on subject: String? = nil) throws(SystemCallError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let errno): throw SystemCallError(operation, subject: subject, errno: errno)
        }
    }

    /// The value, or the failure as what Slate could not do (`action`) through
    /// the system call `operation` on `subject`.
    package func value(_ operation: String, on subject: String? = nil, to action: String) throws(OperationError) -> Success {
        do {
            return try value(operation, on: subject)
        } catch {
            throw OperationError(action, cause: error)
        }
    }
}

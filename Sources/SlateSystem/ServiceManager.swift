import SystemPackage

/// systemd's service manager, when Slate runs as a `Type=notify` unit: what
/// it is told through sd_notify's datagrams on `NOTIFY_SOCKET` (`READY=1`,
/// `STATUS=`, `WATCHDOG=1`, `STOPPING=1`), and how often it wants a watchdog
/// ping (`WATCHDOG_USEC`, for this process when `WATCHDOG_PID` names one).
public struct ServiceManager: Sendable {
    /// The socket the notes go to.
    public let socket: String
    /// How long systemd waits for a ping before it deems the service hung; nil: no watchdog.
    public let watchdog: Duration?

    /// The service manager of this process, or nil when it runs outside one.
    public static func current() -> ServiceManager? {
        guard let socket = Syscall.environmentValue("NOTIFY_SOCKET"), !socket.isEmpty else { return nil }
        var watchdog: Duration?
        if let text = Syscall.environmentValue("WATCHDOG_USEC"), let microseconds = Int64(text), microseconds > 0 {
            let pid = Syscall.environmentValue("WATCHDOG_PID").flatMap { Int32($0) }
            if pid == nil || pid == Syscall.processID { watchdog = .microseconds(microseconds) }
        }
        return ServiceManager(socket: socket, watchdog: watchdog)
    }

    public init(socket: String, watchdog: Duration?) {
        self.socket = socket
        self.watchdog = watchdog
    }

    /// Sends `note` (`KEY=VALUE` lines); the error is the caller's to log.
    public func notify(_ note: String) -> Result<Void, SystemCallError> {
        Syscall.sendDatagram(Array(note.utf8), toUnixSocket: socket).mapError {
            SystemCallError("sendto", subject: socket, errno: $0)
        }
    }

    /// Whether standard error goes to the journal: then log lines carry a
    /// `<N>` priority and no time of their own.
    public static var journalIsStandardError: Bool { Syscall.standardErrorIsJournal }
}

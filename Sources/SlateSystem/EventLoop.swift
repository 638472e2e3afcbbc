import SlateCore
import SystemPackage

/// One thread's event loop: file descriptors watched with epoll, signals read
/// through a signalfd, and a deadline on a `RigClock` for timers.
public final class EventLoop {
    public typealias Handler = () -> Void

    /// The epoll descriptor (internal for tests).
    let epoll: FileDescriptor
    private var handlers: [FileDescriptor: Handler] = [:]
    private var signalFD: FileDescriptor?
    private var signalHandler: ((Int32) -> Void)?
    private var running = false

    public init() throws(OperationError) {
        epoll = try Syscall.epollCreate().value("epoll_create1", to: "create an event loop")
    }

    deinit {
        try? signalFD?.close()
        try? epoll.close()
    }

    /// Calls `handler` whenever `fd` has `events` (by default: readable or hung
    /// up; `.priority`: a V4L2 device's events), or reports an error.
    public func watch(_ fd: FileDescriptor, for events: PollEvents = .input, _ handler: @escaping Handler)
        throws(OperationError)
    {
        try Syscall.epollAdd(epoll, fd, for: events).value("epoll_ctl", to: "watch file descriptor \(fd.rawValue)")
        handlers[fd] = handler
    }

    public func unwatch(_ fd: FileDescriptor) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = Syscall.epollRemove(epoll, fd)
    }

    /// Makes `signals` the process's to read through a signalfd: blocked on
    /// this thread, so every thread started after (a library's included)
    /// inherits the mask and none is killed by them, and set back to their
    /// default disposition where the parent ignored them. Call it first
    /// thing, before any thread starts.
    public static func claimSignals(_ signals: [Int32]) throws(OperationError) {
        try Syscall.blockSignals(signals).value("pthread_sigmask", to: "block signals")
        try Syscall.defaultDisposition(signals).value("sigaction", to: "take signals the parent ignored")
    }

    /// Blocks `signals` and delivers them to `handler` on the loop.
    public func handleSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(OperationError) {
        try Syscall.blockSignals(signals).value("pthread_sigmask", to: "block signals")
        let fd = try Syscall.signalDescriptor(signals).value("signalfd", to: "read signals")
        signalFD = fd
        signalHandler = handler
        try watch(fd) { [unowned self] in
            while case .success(let signal?) = Syscall.readSignal(fd) { self.signalHandler?(signal) }
        }
    }

    /// Runs until `stop()`, on `clock`'s time. Before each wait it asks
    /// `nextDeadline` when the next timer is due; `afterWake` runs after every
    /// wake-up, events or not. A failed wait ends it with the error.
    public func run(clock: any RigClock = SystemClock(), nextDeadline: () -> Instant?, afterWake: () -> Void)
        throws(OperationError)
    {
        running = true
        defer { running = false }
        while running {
            let timeout = clock.loopTimeout(epoll: epoll, until: nextDeadline())
            let ready = try Syscall.epollWait(epoll, capacity: 32, timeout: timeout).value(
                "epoll_wait", to: "wait for events")
            for fd in ready { handlers[fd]?() }
            afterWake()
        }
    }

    public func stop() { running = false }
}

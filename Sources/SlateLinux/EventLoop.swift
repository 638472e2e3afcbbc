import Glibc
import CSlateShim
import SlateCore

/// One thread's event loop: file descriptors watched with epoll, signals read
/// through a signalfd, and a deadline on CLOCK_MONOTONIC for timers.
public final class EventLoop {
    public typealias Handler = () -> Void

    /// The epoll descriptor (internal for tests).
    let epoll: Int32
    private var handlers: [Int32: Handler] = [:]
    private var signalFD: Int32 = -1
    private var signalHandler: ((Int32) -> Void)?
    private var running = false

    public init() throws(SystemError) {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SystemError("create an event loop (epoll_create1)", path: "epoll") }
    }

    deinit {
        if signalFD >= 0 { close(signalFD) }
        close(epoll)
    }

    /// Calls `handler` whenever `fd` is readable (or hung up).
    public func watch(_ fd: Int32, _ handler: @escaping Handler) throws(SystemError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.fd = fd
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw SystemError("watch file descriptor \(fd) (epoll_ctl)", path: "epoll")
        }
        handlers[fd] = handler
    }

    public func unwatch(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
    }

    /// Blocks `signals` and delivers them to `handler` on the loop.
    public func handleSignals(_ signals: [Int32], _ handler: @escaping (Int32) -> Void) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        guard pthread_sigmask(SIG_BLOCK, &mask, nil) == 0 else { throw SystemError("block signals", path: "signals") }
        signalFD = signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC))
        guard signalFD >= 0 else { throw SystemError("read signals (signalfd)", path: "signals") }
        signalHandler = handler
        let fd = signalFD
        try watch(fd) { [unowned self] in
            var info = signalfd_siginfo()
            while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                self.signalHandler?(Int32(info.ssi_signo))
            }
        }
    }

    /// Runs until `stop()`. Before each wait it asks `nextDeadline` when the next
    /// timer is due; `afterWake` runs after every wake-up, events or not. A
    /// failed wait (other than a signal's interruption) ends it with the error.
    public func run(nextDeadline: () -> Instant?, afterWake: () -> Void) throws(SystemError) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 32)
        while running {
            var timeout: Int32 = -1
            if let deadline = nextDeadline() {
                let micros = deadline.microseconds - MonotonicClock.now().microseconds
                timeout = micros <= 0 ? 0 : Int32(clamping: (micros + 999) / 1000)
            }
            let count = epoll_wait(epoll, &events, Int32(events.count), timeout)
            if count < 0 && errno != EINTR {
                running = false
                throw SystemError("wait for events (epoll_wait)", path: "the event loop")
            }
            for index in 0..<max(0, Int(count)) {
                handlers[events[index].data.fd]?()
            }
            afterWake()
        }
    }

    public func stop() { running = false }
}

import SlateCore
import SystemPackage

/// Where the daemon's time comes from, and how its threads wait on it:
/// CLOCK_MONOTONIC in a rig (`SystemClock`), a `VirtualClock` in tests, where
/// time moves only when every thread taking part waits.
public protocol RigClock: Sendable {
    /// The time now.
    func now() -> Instant
    /// `instant` by the wall clock (since 1970-01-01 UTC).
    func wallClock(of instant: Instant) -> Instant
    /// Waits until one of `bells` is readable (true) or `deadline` has passed
    /// (false); no deadline: until a bell rings.
    func wait(for bells: [FileDescriptor], until deadline: Instant?) -> Bool
    /// The calling thread takes part in the clock's time until `leave()`:
    /// a virtual clock moves only while each such thread waits on it.
    /// `admitted`: a thread `admit()` announced.
    func enter(admitted: Bool)
    func leave()
    /// Announces a thread about to start that will enter: time waits for it.
    func admit()
    /// The event loop's wait for `deadline`: how long `epoll_wait` may block
    /// on `epoll` (milliseconds, -1: until an event), once the clock has done
    /// its own waiting.
    func loopTimeout(epoll: FileDescriptor, until deadline: Instant?) -> Int32
}

extension RigClock {
    /// The calling thread takes part in the clock's time until `leave()`.
    public func enter() { enter(admitted: false) }

    /// Waits until `instant`.
    public func sleep(until instant: Instant) { _ = wait(for: [], until: instant) }

    /// Waits until something is posted to `mailbox` or `deadline` passes.
    public func wait<Contents>(for mailbox: Mailbox<Contents>, until deadline: Instant? = nil) {
        _ = wait(for: [mailbox.bell], until: deadline)
    }
}

/// CLOCK_MONOTONIC: a rig's clock.
public struct SystemClock: RigClock {
    public init() {}

    public func now() -> Instant { MonotonicClock.now() }

    public func wallClock(of instant: Instant) -> Instant { MonotonicClock.wallClock(of: instant) }

    public func wait(for bells: [FileDescriptor], until deadline: Instant?) -> Bool {
        guard !bells.isEmpty else {
            if let deadline { MonotonicClock.sleep(until: deadline) }
            return false
        }
        while true {
            let timeout = Self.milliseconds(until: deadline)
            if timeout == 0 { return (try? Syscall.pollInputs(bells, timeout: 0).get().isEmpty == false) ?? true }
            switch Syscall.pollInputs(bells, timeout: timeout) {
            case .success(let ready) where !ready.isEmpty: return true
            case .failure: return true
            case .success: if let deadline, MonotonicClock.now() >= deadline { return false }
            }
        }
    }

    public func enter(admitted: Bool) {}
    public func leave() {}
    public func admit() {}

    /// Until the deadline, in milliseconds rounded up: `epoll_wait` does the waiting.
    public func loopTimeout(epoll: FileDescriptor, until deadline: Instant?) -> Int32 {
        Self.milliseconds(until: deadline)
    }

    /// Milliseconds until `deadline`, rounded up: 0 once it has passed, -1 for none.
    private static func milliseconds(until deadline: Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let micros = deadline.microseconds - MonotonicClock.now().microseconds
        return micros <= 0 ? 0 : Int32(clamping: (micros + 999) / 1000)
    }
}

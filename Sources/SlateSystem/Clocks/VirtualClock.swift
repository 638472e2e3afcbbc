import SlateCore
import Synchronization
import SystemPackage

/// Time for tests, as swift-nio's `EmbeddedEventLoop` keeps it: it moves only
/// when every thread that entered it waits on it with nothing on its bells,
/// and then straight to the earliest deadline waited for. A daemon on it runs
/// as fast as its work allows, and the same way each time: a frame due in
/// 33 ms comes at once, after everything due before it was done.
///
/// A thread that waits without having entered (an export's) is waited for as
/// long as it waits, and does not hold time up while it works. A thread that
/// entered must leave before it blocks outside the clock on one that waits on
/// it (joining it, say), or time stops for both.
public final class VirtualClock: RigClock {
    private struct Waiter {
        var deadline: Instant?
        var bells: [FileDescriptor]
    }

    private struct State {
        var now: Instant
        /// Threads taking part, with how many times each entered.
        var entered: [UInt: Int] = [:]
        var waiting: [UInt: Waiter] = [:]
        /// Threads announced that have not entered yet.
        var arriving = 0
    }

    private let state: Mutex<State>
    private let start: Instant

    /// A clock at `start` (by default 1000 s, as a machine's monotonic clock
    /// some while after boot).
    public init(start: Instant = Instant(seconds: 1000, microseconds: 0)) {
        self.start = start
        state = Mutex(State(now: start))
    }

    public func now() -> Instant { state.withLock { $0.now } }

    /// `instant` as if the clock had started on 2027-01-01 at 00:00 UTC.
    public func wallClock(of instant: Instant) -> Instant {
        Instant(microseconds: 1_798_761_600_000_000 + instant.microseconds - start.microseconds)
    }

    public func enter(admitted: Bool) {
        let thread = Syscall.currentThread()
        state.withLock { state in
            state.entered[thread, default: 0] += 1
            if admitted { state.arriving -= 1 }
        }
    }

    public func admit() { state.withLock { $0.arriving += 1 } }

    /// Waits here, on virtual time, until `epoll` has events or the deadline
    /// comes; `epoll_wait` then only collects them.
    public func loopTimeout(epoll: FileDescriptor, until deadline: Instant?) -> Int32 {
        _ = wait(for: [epoll], until: deadline)
        return 0
    }

    public func leave() {
        let thread = Syscall.currentThread()
        state.withLock { state in
            let depth = (state.entered[thread] ?? 1) - 1
            state.entered[thread] = depth > 0 ? depth : nil
        }
    }

    public func wait(for bells: [FileDescriptor], until deadline: Instant?) -> Bool {
        let thread = Syscall.currentThread()
        state.withLock { $0.waiting[thread] = Waiter(deadline: deadline, bells: bells) }
        defer { _ = state.withLock { $0.waiting.removeValue(forKey: thread) } }
        while true {
            let due = state.withLock { state in
                Self.advance(&state)
                return deadline.map { state.now >= $0 } ?? false
            }
            if due { return Self.rung(bells, milliseconds: 0) }
            if Self.rung(bells, milliseconds: 1) { return true }
        }
    }

    /// Moves time to the earliest deadline waited for, when every thread that
    /// entered waits, none is arriving, none has mail, and no deadline has
    /// passed unnoticed.
    private static func advance(_ state: inout State) {
        guard state.arriving == 0, state.entered.keys.allSatisfy({ state.waiting[$0] != nil }),
            !state.waiting.values.contains(where: { rung($0.bells, milliseconds: 0) }),
            let next = state.waiting.values.compactMap(\.deadline).min(), next > state.now
        else { return }
        state.now = next
    }

    /// Whether one of `bells` is readable within `milliseconds`.
    private static func rung(_ bells: [FileDescriptor], milliseconds: Int32) -> Bool {
        switch Syscall.pollInputs(bells, timeout: milliseconds) {
        case .success(let ready): !ready.isEmpty
        case .failure: true
        }
    }
}

import SlateCore
import SlateSystem
import Synchronization
import Testing

/// The virtual clock the daemon runs on in tests: time moves only when every
/// thread that entered it waits, and then to the earliest deadline.
@Suite struct VirtualClockTests {
    @Test func aWaitEndsAtItsDeadlineExactlyAndAtOnce() {
        let clock = VirtualClock()
        clock.enter()
        defer { clock.leave() }
        let start = clock.now()
        let real = MonotonicClock.now()
        clock.sleep(until: start + .seconds(3600))
        #expect(clock.now() == start + .seconds(3600))
        #expect(MonotonicClock.now() - real < .seconds(1))
    }

    @Test func mailFromAnotherThreadEndsAWaitAtTheTimeItWasSent() throws {
        let clock = VirtualClock()
        let mailbox = try Mailbox<[Int]>()
        clock.enter()
        defer { clock.leave() }
        let start = clock.now()
        let worker = try WorkerThread(name: "test-worker", clock: clock) {
            clock.sleep(until: start + .milliseconds(100))
            mailbox.post(1)
        }
        let rang = clock.wait(for: [mailbox.bell], until: start + .seconds(1))
        #expect(rang && mailbox.letters() == [1])
        #expect(clock.now() == start + .milliseconds(100))
        worker.join()
    }

    @Test func timeStandsStillWhileAThreadThatEnteredWorks() throws {
        let clock = VirtualClock()
        let done = Mutex(false)
        clock.enter()
        let start = clock.now()
        let worker = try WorkerThread(name: "test-worker", clock: clock) {
            // Real work, 50 ms of it, before the thread waits on the clock.
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(50))
            done.withLock { $0 = true }
            clock.sleep(until: start + .seconds(10))
        }
        // Let the worker start and enter before this thread waits.
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(10))
        clock.sleep(until: start + .milliseconds(1))
        #expect(done.withLock { $0 }, "time moved while the worker was busy")
        // A thread that entered must not block outside the clock on one that waits on it: leave, then join.
        clock.leave()
        worker.join()
        #expect(clock.now() == start + .seconds(10))
    }

    @Test func aThreadThatLeftHoldsNothingUp() {
        let clock = VirtualClock()
        clock.enter()
        clock.leave()
        let start = clock.now()
        clock.sleep(until: start + .seconds(5))
        #expect(clock.now() == start + .seconds(5))
    }
}

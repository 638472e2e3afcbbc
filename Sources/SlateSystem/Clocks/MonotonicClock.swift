import CSlateShim
import Glibc
import SlateCore

/// CLOCK_MONOTONIC, the clock evdev timestamps use once `libevdev_set_clock_id` asks for it.
public enum MonotonicClock {
    public static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Instant(seconds: Int64(spec.tv_sec), microseconds: Int64(spec.tv_nsec) / 1000)
    }

    /// Nanoseconds, for measuring short spans.
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// `instant` by the wall clock (CLOCK_REALTIME, since 1970-01-01 UTC): the
    /// wall clock now, less how long ago `instant` was.
    public static func wallClock(of instant: Instant) -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let ago = now().microseconds - instant.microseconds
        return Instant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000 - ago)
    }

    /// Sleeps until `instant` on the monotonic clock (returns at once if it has passed).
    public static func sleep(until instant: Instant) {
        var spec = timespec(
            tv_sec: Int(instant.microseconds / 1_000_000), tv_nsec: Int(instant.microseconds % 1_000_000) * 1000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}

/// CLOCK_REALTIME's discipline, as the kernel holds it (adjtimex, read only).
public enum RealtimeClock {
    /// Whether an NTP or PTP daemon keeps it synchronized and how closely; nil where the kernel will not say.
    public static func sync() -> ClockSync? {
        var estimated = 0, maximum = 0
        let state = slate_clock_status(&estimated, &maximum)
        guard state >= 0 else { return nil }
        return ClockSync(
            synchronized: state == 1, estimatedErrorMicroseconds: Int64(estimated), maximumErrorMicroseconds: Int64(maximum))
    }
}

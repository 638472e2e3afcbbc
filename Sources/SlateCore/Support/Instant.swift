/// A point on an event clock, in microseconds from an arbitrary origin.
///
/// The core never reads a clock: every instant comes from an event's own
/// timestamp or from the caller.
public struct Instant: Comparable, Hashable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    public static func < (a: Instant, b: Instant) -> Bool { a.microseconds < b.microseconds }

    public static func + (a: Instant, b: Duration) -> Instant {
        Instant(microseconds: a.microseconds &+ b.microseconds)
    }

    public static func - (a: Instant, b: Instant) -> Duration {
        .microseconds(a.microseconds &- b.microseconds)
    }

    /// Seconds since `origin` with six decimals, e.g. `1.250000`.
    public func seconds(since origin: Instant, decimals: Int = 6) -> String {
        Instant.formatSeconds(microseconds &- origin.microseconds, decimals: decimals)
    }

    /// `micros` as seconds with `decimals` decimals (at most 6), e.g. `-1.250`.
    public static func formatSeconds(_ micros: Int64, decimals: Int) -> String {
        let negative = micros < 0
        let magnitude = micros.magnitude
        var whole = String(magnitude / 1_000_000)
        if negative { whole = "-" + whole }
        guard decimals > 0 else { return whole }
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        return whole + "." + fraction.prefix(min(decimals, 6))
    }
}

extension Duration {
    /// Whole microseconds in this duration (truncated).
    public var microseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000 &+ attoseconds / 1_000_000_000_000
    }

    /// Seconds to `decimals` decimals (at most 6; the rest dropped, as
    /// `Instant.formatSeconds` drops it), as a number for JSON: 1.6 for 1.6004 s to 3 decimals.
    public func inSeconds(decimals: Int = 6) -> Double {
        var unit: Int64 = 1
        for _ in 0..<(6 - min(max(decimals, 0), 6)) { unit *= 10 }
        return Double(microseconds / unit) / Double(1_000_000 / unit)
    }
}

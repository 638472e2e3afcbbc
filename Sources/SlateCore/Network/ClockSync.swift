/// How well a rig's CLOCK_REALTIME is kept, as the kernel holds it for the
/// NTP or PTP daemon that disciplines it (chronyd, ntpd, phc2sys): whether it
/// is synchronized, and the daemon's estimated and maximum error.
public struct ClockSync: Codable, Hashable, Sendable {
    public var synchronized: Bool
    public var estimatedErrorMicroseconds: Int64
    public var maximumErrorMicroseconds: Int64

    enum CodingKeys: String, CodingKey {
        case synchronized
        case estimatedErrorMicroseconds = "estimated_error_us", maximumErrorMicroseconds = "maximum_error_us"
    }

    public init(synchronized: Bool, estimatedErrorMicroseconds: Int64, maximumErrorMicroseconds: Int64) {
        self.synchronized = synchronized
        self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
        self.maximumErrorMicroseconds = maximumErrorMicroseconds
    }

    /// `synchronized, ±120 µs (at most 2.5 ms)`, or `not synchronized`.
    public var text: String {
        guard synchronized else { return "not synchronized" }
        return "synchronized, ±\(Self.span(estimatedErrorMicroseconds)) (at most \(Self.span(maximumErrorMicroseconds)))"
    }

    private static func span(_ micros: Int64) -> String {
        micros < 1000 ? "\(micros) µs" : NumberText.format((Double(micros) / 100).rounded() / 10) + " ms"
    }
}

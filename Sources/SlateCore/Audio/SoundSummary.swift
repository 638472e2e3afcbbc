/// A take's sound as its `stopped` line reports it: how long it is, how far
/// the sound card's clock drifted and how much was corrected, and what went wrong.
public struct SoundSummary: Codable, Sendable, Hashable {
    /// Seconds, to the millisecond.
    public var duration: Double
    /// The card's clock against the monotonic clock over the take, in parts
    /// per million (positive: the card runs fast); nil when the take was too short to tell.
    public var driftPPM: Double?
    /// The largest stretch (positive) or shrink of the sound asked, in parts per million.
    public var correctionPPM: Double
    /// Samples at full scale, as the card delivered them (before any gain).
    public var clipped: Int
    /// Overruns: sound the card lost because it was not read in time, replaced by silence of its length.
    public var overruns: Int
    /// Seconds into the take when its sound was lost (the device went away), if it was.
    public var lostAt: Double?

    public init(duration: Double, driftPPM: Double?, correctionPPM: Double, clipped: Int, overruns: Int, lostAt: Double?) {
        self.duration = duration
        self.driftPPM = driftPPM
        self.correctionPPM = correctionPPM
        self.clipped = clipped
        self.overruns = overruns
        self.lostAt = lostAt
    }

    private enum CodingKeys: String, CodingKey {
        case duration, clipped, overruns
        case driftPPM = "drift_ppm"
        case correctionPPM = "correction_ppm"
        case lostAt = "lost_at"
    }

    /// `sound 2.000 s, drift +12.3 ppm, corrected 15.0 ppm at most, 0 clipped, 0 overruns`.
    public var text: String {
        var figures = ["sound " + Instant.formatSeconds(Int64((duration * 1000).rounded()) * 1000, decimals: 3) + " s"]
        figures.append(driftPPM.map { "drift " + Self.signed($0) + " ppm" } ?? "drift unmeasured")
        figures.append("corrected " + Self.signed(correctionPPM) + " ppm at most")
        figures.append("\(clipped) clipped")
        figures.append("\(overruns) overrun\(overruns == 1 ? "" : "s")")
        if let lostAt {
            figures.append("lost at " + Instant.formatSeconds(Int64((lostAt * 1000).rounded()) * 1000, decimals: 3) + " s")
        }
        return figures.joined(separator: ", ")
    }

    /// `+12.3`, `-0.4`, `0.0`.
    static func signed(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let text = "\(abs(tenths) / 10).\(abs(tenths) % 10)"
        return tenths > 0 ? "+" + text : tenths < 0 ? "-" + text : text
    }
}

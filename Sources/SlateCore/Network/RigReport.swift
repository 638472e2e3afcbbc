/// What `slate run` prints about other rigs: their answers to this rig's
/// commands, rigs coming online or going, commands refused, and how far apart
/// the rigs' first frames of a synchronized take were.
public struct RigReport: Sendable {
    public enum Event: Sendable {
        /// A line `rig` printed in answer to a command of this rig.
        case line(text: String, line: ReportLine?)
        case online
        case offline
        /// A command this rig sent, as sent: its action and, when timed, its instant.
        case sent(action: String, target: String, atNs: Int64?)
        /// A command from `rig` that this rig did not run, and why.
        case refused(action: String, reason: String)
        /// A synchronized take's first frames: each rig's CLOCK_REALTIME instant (ns).
        case spread([String: Int64], expected: Int)
    }

    public var time: Instant
    /// The rig the report is about (for `sent` and `spread`, this rig).
    public var rig: String
    public var event: Event

    public init(time: Instant, rig: String, event: Event) {
        self.time = time
        self.rig = rig
        self.event = event
    }

    /// The first frames' offsets from the earliest, in milliseconds, and their spread.
    public static func offsets(_ firstFrames: [String: Int64]) -> (spread: Double, offsets: [String: Double]) {
        guard let earliest = firstFrames.values.min(), let latest = firstFrames.values.max() else { return (0, [:]) }
        return (Self.milliseconds(latest - earliest), firstFrames.mapValues { Self.milliseconds($0 - earliest) })
    }

    private static func milliseconds(_ nanoseconds: Int64) -> Double { (Double(nanoseconds) / 100_000).rounded() / 10 }

    /// The text after `rig`: `cam-b: 1.250  take     started take 1 ...`, `cam-b online`.
    public var text: String {
        switch event {
        case .line(let text, _): return "\(rig): \(text)"
        case .online: return "\(rig) online"
        case .offline: return "\(rig) offline"
        case .sent(let action, let target, let at):
            return "\(rig): sent \(action) to \(target)" + (at.map { " for " + UTCTime.format(microseconds: $0 / 1000) } ?? "")
        case .refused(let action, let reason): return "\(rig): refused \(action): \(reason)"
        case .spread(let firstFrames, let expected) where firstFrames.isEmpty:
            return "\(rig): no rig started: \(expected) did not"
        case .spread(let firstFrames, let expected):
            let (spread, offsets) = Self.offsets(firstFrames)
            let each = offsets.sorted { $0.key < $1.key }.map { "\($0.key) +\(NumberText.format($0.value))" }
            let missing = expected > firstFrames.count ? "; \(expected - firstFrames.count) did not start" : ""
            return "\(rig): first frames of \(firstFrames.count) rigs within \(NumberText.format(spread)) ms ("
                + each.joined(separator: ", ") + " ms)" + missing
        }
    }

    /// The report as a JSON line's fields.
    var fields: ReportLine.Rig {
        var fields = ReportLine.Rig(rig: rig, event: "", text: text)
        switch event {
        case .line(_, let line):
            fields.event = "line"
            fields.line = line
        case .online: fields.event = "online"
        case .offline: fields.event = "offline"
        case .sent(_, _, let atNs):
            fields.event = "sent"
            fields.atNs = atNs
        case .refused: fields.event = "refused"
        case .spread(let firstFrames, _):
            fields.event = "spread"
            let (spread, offsets) = Self.offsets(firstFrames)
            fields.spreadMs = spread
            fields.firstFrames = offsets
        }
        return fields
    }
}

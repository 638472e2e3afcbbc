/// Measures a sound card's clock against the monotonic clock: a least-squares
/// line through (position, time) pairs, one per captured block, over a window
/// of the latest ones. Its slope is the card's real rate; its line gives each
/// frame the time it was captured, without the jitter of single timestamps.
public struct DriftEstimator: Sendable {
    /// The rate the card was opened at.
    public let nominalRate: Int
    /// How far back points are kept.
    public let window: Duration
    /// The span of points under which the slope is not trusted and the nominal rate is used.
    public let minimumSpan: Duration

    private var positions: [Int64] = []
    private var times: [Int64] = []
    private var first = 0
    private var fit: (position: Double, time: Double, microsecondsPerFrame: Double)?
    private var sinceFit = 0

    public init(nominalRate: Int, window: Duration = .seconds(60), minimumSpan: Duration = .seconds(2)) {
        self.nominalRate = nominalRate
        self.window = window
        self.minimumSpan = minimumSpan
    }

    /// Whether no point has been added since the start or the last reset.
    public var isEmpty: Bool { first == positions.count }

    /// Adds a block's first frame: its position on the card's clock and its capture time.
    /// A position that goes back (the device was opened again) starts over.
    public mutating func add(position: Int64, time: Instant) {
        if let last = positions.last, !isEmpty, position <= last { reset() }
        positions.append(position)
        times.append(time.microseconds)
        let horizon = time.microseconds - window.microseconds
        while first < positions.count - 1 && times[first] < horizon { first += 1 }
        if first > 4096 {
            positions.removeFirst(first)
            times.removeFirst(first)
            first = 0
        }
        // Refitted at each of the first points, then at every tenth.
        sinceFit += 1
        if positions.count - first < 50 || sinceFit >= 10 { refit() }
    }

    /// Forgets every point (the device was opened again).
    public mutating func reset() {
        positions.removeAll()
        times.removeAll()
        first = 0
        fit = nil
        sinceFit = 0
    }

    /// The time the points in the window span.
    public var span: Duration {
        guard let last = times.last, !isEmpty else { return .zero }
        return .microseconds(last - times[first])
    }

    /// How fast the card's clock runs against the monotonic clock, in parts per
    /// million (positive: faster); nil until the points span `minimumSpan`.
    public var ppm: Double? {
        guard let fit, trustsSlope else { return nil }
        return (1_000_000 / (fit.microsecondsPerFrame * Double(nominalRate)) - 1) * 1_000_000
    }

    /// When the frame at `position` was (or will be) captured, by the line; nil before any point.
    public func time(ofPosition position: Int64) -> Instant? {
        guard let fit else { return nil }
        let time = fit.time + (Double(position) - fit.position) * fit.microsecondsPerFrame
        return Instant(microseconds: Int64(time.rounded()))
    }

    private var trustsSlope: Bool {
        guard let last = times.last, !isEmpty else { return false }
        return last - times[first] >= minimumSpan.microseconds
    }

    /// The least-squares line through the window's points, centred on their
    /// means; with too short a span, the nominal rate through the means.
    private mutating func refit() {
        sinceFit = 0
        let count = Double(positions.count - first)
        guard count > 0 else { return fit = nil }
        let origin = (positions[first], times[first])
        var meanPosition = 0.0, meanTime = 0.0
        for index in first..<positions.count {
            meanPosition += Double(positions[index] - origin.0)
            meanTime += Double(times[index] - origin.1)
        }
        meanPosition /= count
        meanTime /= count
        var slope = 1_000_000 / Double(nominalRate)
        if trustsSlope {
            var covariance = 0.0, variance = 0.0
            for index in first..<positions.count {
                let p = Double(positions[index] - origin.0) - meanPosition
                covariance += p * (Double(times[index] - origin.1) - meanTime)
                variance += p * p
            }
            if variance > 0 { slope = covariance / variance }
        }
        fit = (Double(origin.0) + meanPosition, Double(origin.1) + meanTime, slope)
    }
}

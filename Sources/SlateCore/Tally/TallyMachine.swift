/// Decides what each tally output shows, from the rig's signals and the time:
/// the state (recording over error over exporting over standby), each output's
/// pattern in it, blinking from the state's start, and a busylight written
/// again before it goes dark. It returns what to show; writing is the caller's.
public struct TallyMachine: Sendable {
    /// Output `output` (its index in the spec) is to show `light`.
    public struct Show: Equatable, Sendable {
        public var output: Int
        public var light: TallyLight
    }

    /// Half a blink: lit, then dark, each this long.
    public static let blinkHalf = Duration.milliseconds(500)

    public let spec: TallySpec
    public private(set) var state = TallyState.standby
    /// When `state` began: blinking starts lit there.
    private var since: Instant
    private var signals = TallySignals()
    private var errorUntil: Instant?
    private var shown: [(light: TallyLight, at: Instant)?]
    private var now: Instant

    public init(spec: TallySpec, at now: Instant) {
        self.spec = spec
        since = now
        self.now = now
        shown = Array(repeating: nil, count: spec.outputs.count)
    }

    /// The machine for a new spec (a SIGHUP'd profile) going on from `old`:
    /// its state, when that began, its signals and any error's hold; every
    /// output is shown at the next call.
    public init(spec: TallySpec, continuing old: TallyMachine) {
        self.init(spec: spec, at: old.now)
        state = old.state
        since = old.since
        signals = old.signals
        errorUntil = old.errorUntil
    }

    /// What output `output` shows now; nil before it was first shown.
    public func light(of output: Int) -> TallyLight? { shown[output]?.light }

    /// What every output shows at first (standby).
    public mutating func start() -> [Show] { advance(to: now) }

    /// The rig's signals changed (or were read again) at `time`.
    public mutating func update(_ signals: TallySignals, at time: Instant) -> [Show] {
        self.signals = signals
        return advance(to: time)
    }

    /// Something failed at `time`: error for the spec's hold.
    public mutating func failed(at time: Instant) -> [Show] {
        errorUntil = time + spec.errorHold
        return advance(to: time)
    }

    /// The clock reached `time` (a deadline came).
    public mutating func tick(at time: Instant) -> [Show] { advance(to: time) }

    /// When the next blink, refresh or end of an error is due.
    public var nextDeadline: Instant? {
        var deadlines: [Instant] = []
        if let errorUntil { deadlines.append(errorUntil) }
        for (index, output) in spec.outputs.enumerated() {
            if case .blink = output.pattern(in: state) {
                let half = Self.blinkHalf.microseconds
                deadlines.append(now + .microseconds(half - (now - since).microseconds % half))
            }
            if let refresh = output.target.refresh, let last = shown[index] { deadlines.append(last.at + refresh) }
        }
        return deadlines.min()
    }

    private mutating func advance(to time: Instant) -> [Show] {
        now = max(now, time)
        if let until = errorUntil, now >= until { errorUntil = nil }
        let next: TallyState =
            if signals.recording { .recording } else if signals.cameraLost || errorUntil != nil {
                .error
            } else if signals.exporting {
                .exporting
            } else { .standby }
        if next != state {
            state = next
            since = now
        }
        var shows: [Show] = []
        for (index, output) in spec.outputs.enumerated() {
            let light = light(of: output.pattern(in: state))
            let due = output.target.refresh.map { refresh in shown[index].map { $0.at + refresh <= now } ?? true } ?? false
            if shown[index]?.light != light || due {
                shown[index] = (light, now)
                shows.append(Show(output: index, light: light))
            }
        }
        return shows
    }

    private func light(of pattern: TallyPattern) -> TallyLight {
        switch pattern {
        case .off: return .dark
        case .on(let color): return .lit(color)
        case .blink(let color):
            let halves = (now - since).microseconds / Self.blinkHalf.microseconds
            return halves % 2 == 0 ? .lit(color) : .dark
        }
    }
}

/// Decides which encoded frames go into which take, without I/O or a clock.
///
/// The camera streams and the encoder runs all the time; a take starts with
/// the first frame captured at or after its press (the encoder is asked for a
/// keyframe there), or, with pre-roll, with the keyframe at or before the press
/// minus the pre-roll, from a ring of recent packets. It ends before the first
/// frame captured at or after its stop.
public struct TakeRouter<Packet> {
    /// An encoded frame with its capture time.
    public struct Timed {
        public var time: Instant
        public var isKeyframe: Bool
        public var packet: Packet

        public init(time: Instant, isKeyframe: Bool, packet: Packet) {
            self.time = time
            self.isKeyframe = isKeyframe
            self.packet = packet
        }
    }

    /// What the caller must do with a packet.
    public enum Output {
        /// Open a new take file; its first frame was captured at `firstFrame`.
        case open(firstFrame: Instant)
        case write(Timed)
        /// Close the take: its last frame is written.
        case close
    }

    private enum State {
        case idle
        /// Waiting for the frames of a take that starts at `at`.
        case starting(at: Instant)
        case recording(stopAt: Instant?)
    }

    public var preroll: Duration
    private var state = State.idle
    /// A start that came while the take was closing.
    private var queuedStart: Instant?
    private var ring: [Timed] = []
    private var keyframeRequested = false

    public init(preroll: Duration = .zero) { self.preroll = preroll }

    public var isRecording: Bool {
        if case .idle = state { return false }
        return true
    }

    /// A take starts at `time` (the button's timestamp). While a take is
    /// closing, the start waits for its close.
    public mutating func start(at time: Instant) -> [Output] {
        switch state {
        case .idle: break
        case .recording(let stopAt?):
            queuedStart = max(time, stopAt)
            keyframeRequested = false
            return []
        case .starting, .recording(nil):
            return []
        }
        keyframeRequested = false
        guard preroll > .zero else {
            state = .starting(at: time)
            return []
        }
        let from = time + .microseconds(-preroll.microseconds)
        let keyframe = ring.lastIndex { $0.isKeyframe && $0.time <= from } ?? ring.firstIndex { $0.isKeyframe && $0.time <= time }
        guard let first = keyframe else {
            state = .starting(at: time)
            return []
        }
        state = .recording(stopAt: nil)
        return [.open(firstFrame: ring[first].time)] + ring[first...].map { .write($0) }
    }

    /// The take stops at `time`: frames captured before it are its last.
    public mutating func stop(at time: Instant) -> [Output] {
        switch state {
        case .idle: return []
        case .starting:
            state = .idle
            return []
        case .recording(let stopAt?) where queuedStart != nil:
            // The queued take stops before it opened.
            queuedStart = nil
            state = .recording(stopAt: stopAt)
            return []
        case .recording:
            state = .recording(stopAt: time)
            return []
        }
    }

    /// Whether the frame captured at `time` must be encoded as a keyframe:
    /// the first frame of a take that starts without pre-roll.
    public mutating func needsKeyframe(forFrameAt time: Instant) -> Bool {
        let at: Instant
        switch state {
        case .starting(let start): at = start
        case .recording(_?) where queuedStart != nil: at = queuedStart!
        default: return false
        }
        guard time >= at, !keyframeRequested else { return false }
        keyframeRequested = true
        return true
    }

    /// An encoded frame, in capture order.
    public mutating func packet(_ timed: Timed) -> [Output] {
        remember(timed)
        switch state {
        case .idle:
            return []
        case .starting(let at):
            return begin(with: timed, at: at)
        case .recording(let stopAt):
            guard let stopAt, timed.time >= stopAt else { return [.write(timed)] }
            guard let next = queuedStart else {
                state = .idle
                return [.close]
            }
            queuedStart = nil
            state = .starting(at: next)
            return [.close] + begin(with: timed, at: next)
        }
    }

    /// Opens the take starting at `at` with `timed` if it can be its first frame.
    private mutating func begin(with timed: Timed, at: Instant) -> [Output] {
        guard timed.time >= at, timed.isKeyframe else { return [] }
        state = .recording(stopAt: nil)
        return [.open(firstFrame: timed.time), .write(timed)]
    }

    /// The take could not be opened (its file could not be created): nothing is
    /// recorded until the next start.
    public mutating func abandon() {
        state = .idle
        queuedStart = nil
    }

    /// The camera stopped or went away: a take in progress is closed now.
    public mutating func end() -> [Output] {
        ring.removeAll()
        queuedStart = nil
        defer { state = .idle }
        if case .recording = state { return [.close] }
        return []
    }

    /// Keeps the packets pre-roll may need: from the last keyframe at or before
    /// the newest frame minus the pre-roll.
    private mutating func remember(_ timed: Timed) {
        guard preroll > .zero else { return }
        ring.append(timed)
        let horizon = timed.time + .microseconds(-preroll.microseconds)
        if let keep = ring.lastIndex(where: { $0.isKeyframe && $0.time <= horizon }), keep > 0 {
            ring.removeFirst(keep)
        }
    }

    /// Frames held for pre-roll (for tests and memory accounting).
    public var ringCount: Int { ring.count }
}

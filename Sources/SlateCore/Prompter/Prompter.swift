/// The teleprompter as the rig's books hold it (the seed's `TeleprompterOverlay`):
/// a script that scrolls at `speed` points a second while a take records and
/// it is not paused. Its position is kept on the rig's clock, so every screen
/// that shows it computes the same line.
public struct Prompter: Sendable, Equatable {
    /// The seed's speeds and the step `prompter.faster` and `.slower` take.
    public static let speeds: ClosedRange<Double> = 8...60
    public static let speedStep = 4.0

    public let spec: PrompterSpec
    /// The script's length in points: where it ends.
    public let length: Double
    public private(set) var speed: Double
    /// Whether a take records (the script scrolls only then).
    public private(set) var recording = false
    /// Paused by `prompter.pause`.
    public private(set) var paused = false
    /// Points scrolled at `since`.
    private var offset = 0.0
    private var since = Instant(microseconds: 0)

    public init(spec: PrompterSpec, length: Double) {
        self.spec = spec
        self.length = max(0, length)
        speed = min(max(spec.speed, Self.speeds.lowerBound), Self.speeds.upperBound)
    }

    /// Whether it scrolls now.
    public var isRunning: Bool { recording && !paused }

    /// Where it was at an instant, from which it scrolls on at `speed` while
    /// running; it changes only when something is asked of it, so screens
    /// are told it once and count on from it.
    public var anchor: (points: Double, at: Instant) { (offset, since) }

    /// Points scrolled at `time`: stopped at the end, or round again past it
    /// (`loopGap` of blank between) when the profile says `loop`.
    public func position(at time: Instant) -> Double {
        let raw = isRunning && time > since ? offset + speed * (time - since).inSeconds() : offset
        switch spec.end {
        case .pause: return min(raw, length)
        case .loop:
            let lap = length + spec.loopGap
            return lap > 0 ? raw.truncatingRemainder(dividingBy: lap) : 0
        }
    }

    /// Keeps the position reached at `time` as the new starting point.
    private mutating func settle(at time: Instant) {
        offset = position(at: time)
        since = time
    }

    /// A take started (its first frame at `time`) or ended.
    mutating func setRecording(_ on: Bool, at time: Instant) {
        guard on != recording else { return }
        settle(at: time)
        recording = on
    }

    /// Carries out `action` at `time`; what it did, for the action's line.
    mutating func perform(_ action: PrompterAction, at time: Instant) -> String {
        settle(at: time)
        switch action {
        case .pause:
            paused.toggle()
            return paused ? "prompter paused" : "prompter goes on"
        case .faster: return setSpeed(speed + Self.speedStep)
        case .slower: return setSpeed(speed - Self.speedStep)
        case .speed(let value): return setSpeed(value)
        case .back(let duration):
            offset = max(0, offset - speed * duration.inSeconds())
            return "prompter back to \(NumberText.format((offset * 10).rounded() / 10)) pt"
        case .top:
            offset = 0
            return "prompter at the top"
        }
    }

    private mutating func setSpeed(_ value: Double) -> String {
        speed = min(max(value.rounded(), Self.speeds.lowerBound), Self.speeds.upperBound)
        return "prompter \(NumberText.format(speed)) pt/s"
    }
}

/// What the prompter actions ask.
public enum PrompterAction: Hashable, Sendable {
    /// Pauses, or goes on after a pause.
    case pause
    case faster
    case slower
    /// Set by a control on `prompter:speed`, in points a second.
    case speed(Double)
    /// Scrolls back the distance read in this long at the present speed.
    case back(Duration)
    case top
}

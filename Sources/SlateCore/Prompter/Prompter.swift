/// The teleprompter as the rig's books hold it (the seed's `TeleprompterOverlay`):
/// a script that scrolls at `speed` points a second while a take records and
/// it is not paused. Its position is kept on the rig's clock, so every screen
/// that shows it computes the same line. Its cues are the places
/// `prompter.next-cue` and `prompter.previous-cue` jump to, and where a take
/// starts (`PrompterSpec.Start`).
public struct Prompter: Sendable, Equatable {
    /// The seed's speeds and the step `prompter.faster` and `.slower` take.
    public static let speeds: ClosedRange<Double> = 8...60
    public static let speedStep = 4.0

    public let spec: PrompterSpec
    /// The script's length in points: where it ends.
    public let length: Double
    /// Where each cue begins, in points, in order.
    public let cues: [Double]
    /// The script's version (`PrompterScript.version`).
    public let version: String
    public private(set) var speed: Double
    /// Whether a take records (the script scrolls only then).
    public private(set) var recording = false
    /// Paused by `prompter.pause`.
    public private(set) var paused = false
    /// Points scrolled at `since`.
    private var offset = 0.0
    private var since = Instant(microseconds: 0)

    public init(spec: PrompterSpec, length: Double, cues: [Double] = [], version: String = "") {
        self.spec = spec
        let length = max(0, length)
        self.length = length
        self.cues = cues.filter { $0 >= 0 && $0 <= length }
        self.version = version
        speed = min(max(spec.speed, Self.speeds.lowerBound), Self.speeds.upperBound)
    }

    /// The prompter of `script` as `spec` lays it out.
    public init(spec: PrompterSpec, script: PrompterScript) {
        self.init(spec: spec, length: script.length(spec), cues: script.cuePoints(spec), version: script.version)
    }

    /// This prompter (its script read again, or its profile) going on from
    /// where `old` stood at `time`: the same point (the end at most), paused
    /// or not, recording or not, and the speed it was set to unless the
    /// profile's speed changed.
    public func continuing(from old: Prompter, at time: Instant) -> Prompter {
        var next = self
        next.offset = min(old.position(at: time), length)
        next.since = time
        next.recording = old.recording
        next.paused = old.paused
        if old.spec.speed == spec.speed { next.speed = old.speed }
        return next
    }

    /// The cue `point` is in, from 0 (a cue's first line counts as in it); nil before the first.
    public func cue(at point: Double) -> Int? {
        // Looping, the blank after the end comes before the first cue of the next lap.
        if spec.end == .loop && point > length { return nil }
        return cues.lastIndex { $0 <= point + spec.lineHeight / 2 }
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
        guard on else { return }
        switch spec.start {
        case .cue: offset = cue(at: offset).map { cues[$0] } ?? 0
        case .top: offset = 0
        case .stay: break
        }
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
        case .nextCue:
            guard !cues.isEmpty else { return "prompter: the script has no cues" }
            let next = cue(at: offset).map { $0 + 1 } ?? 0
            if next < cues.count { return moveTo(cue: next) }
            // Looping, the last cue is followed by the first.
            return spec.end == .loop ? moveTo(cue: 0) : "prompter: no cue after this"
        case .previousCue:
            // Within its first line a cue is left for the one before; further on, its start.
            guard let current = cue(at: offset) else {
                offset = 0
                return "prompter at the top"
            }
            if offset - cues[current] >= spec.lineHeight { return moveTo(cue: current) }
            guard current > 0 else {
                offset = 0
                return "prompter at the top"
            }
            return moveTo(cue: current - 1)
        }
    }

    private mutating func moveTo(cue index: Int) -> String {
        offset = cues[index]
        return "prompter at cue \(index + 1) of \(cues.count)"
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
    /// Jumps to the next cue.
    case nextCue
    /// Jumps to the start of the cue it is in, or, from within its first line, to the cue before (or the top).
    case previousCue
}

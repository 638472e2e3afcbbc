/// One thing that happened in a rig, as replay, monitor and run print it.
public enum Report: Sendable {
    case capture(CaptureReport)
    case action(ActionReport)
    case sound(SoundReport)

    public var time: Instant {
        switch self {
        case .capture(let report): report.time
        case .action(let report): report.time
        case .sound(let report): report.time
        }
    }
}

/// A capture event: a bound button's phase.
public struct CaptureReport: Sendable {
    public var time: Instant
    public var input: String
    public var code: EventCode
    /// The handler role that received the event; nil for a button bound directly to actions.
    public var role: Role?
    public var phase: Phase
}

/// What started an action: a gesture of a bound button, or an axis movement.
public struct TriggerInfo: Sendable {
    public var input: String
    public var code: EventCode
    public var role: Role?
    public var gesture: Gesture?
}

/// An action the runner performed.
public struct ActionReport: Sendable {
    public var time: Instant
    public var action: Action
    /// The axis delta or step amount, for `zoom.step`.
    public var value: Double?
    public var macro: String?
    public var trigger: TriggerInfo?
    /// What the recorder did, e.g. `started take 1`.
    public var outcome: RecorderOutcome?
    /// For `exec`: the environment describing the event, to run the program with.
    public var environment: [(String, String)]
}

/// A sound to play: automatic feedback for a remote input, or a `sound` action.
public struct SoundReport: Sendable {
    public var time: Instant
    public var sound: String
    /// The file named by the profile, or nil for the built-in sound.
    public var file: String?
    public var input: String?
}

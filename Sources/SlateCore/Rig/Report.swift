/// One thing that happened in a rig, as replay, monitor and run print it.
public enum Report: Sendable {
    case phase(PhaseReport)
    case action(ActionReport)
    case sound(SoundReport)
    case take(TakeReport)
    case ignored(IgnoredReport)
    /// A bounce of a button's contacts, folded into its press.
    case debounced(DebounceReport)
    case control(ControlReport)
    /// What other rigs did, or this rig's link to them.
    case rig(RigReport)
    /// What an OBS answered.
    case obs(OBSReport)

    public var time: Instant {
        switch self {
        case .obs(let report): report.time
        case .rig(let report): report.time
        case .control(let report): report.time
        case .ignored(let report): report.time
        case .debounced(let report): report.time
        case .phase(let report): report.time
        case .action(let report): report.time
        case .sound(let report): report.time
        case .take(let report): report.time
        }
    }
}

/// A bound button's phase (a capture event, printed as a `capture` line).
public struct PhaseReport: Sendable {
    public var time: Instant
    public var input: String
    public var code: EventCode
    /// The handler role that received the event; nil for a button bound directly to actions.
    public var role: Role?
    public var phase: Phase
}

/// A button press that did nothing, and why.
public struct IgnoredReport: Sendable {
    public enum Reason: Sendable, Equatable {
        /// Another button's capture event is in progress (one source at a time).
        case inProgress(input: String, code: EventCode)
        /// The button is not in the input's `bind` section.
        case notBound
        case captureInactive
    }

    public var time: Instant
    public var input: String
    public var code: EventCode
    public var reason: Reason
}

/// A release and a press of the same button within its input's debounce
/// window, folded away: the button stayed down (a `debounced` line, at the press).
public struct DebounceReport: Sendable {
    public var time: Instant
    public var input: String
    public var code: EventCode
    /// How long the contacts were open: from the release to the press.
    public var bounce: Duration
}

extension IgnoredReport.Reason {
    /// `pedals KEY_B is in progress`, `not bound`, `capture inactive`.
    public var text: String {
        switch self {
        case .inProgress(let input, let code): "\(input) \(code.name) is in progress"
        case .notBound: "not bound"
        case .captureInactive: "capture inactive"
        }
    }
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
    /// Where an action that no button ran came from (`http`).
    public var source: String? = nil
    /// For `exec`: the variables describing the event (`ExecEnvironment.event`);
    /// the times are added when the program is started.
    public var environment: [(String, String)]
}

/// A sound to play: automatic feedback for a remote input, or a `sound` action.
public struct SoundReport: Sendable {
    public var time: Instant
    public var sound: String
    /// The file named by the profile, or nil for the built-in sound.
    public var file: String?
    public var input: String?
    /// Why the sound did not play, when the player could not play it: a
    /// second line about the same sound, after the one that asked for it.
    public var failure: String?

    public init(time: Instant, sound: String, file: String?, input: String?, failure: String? = nil) {
        self.time = time
        self.sound = sound
        self.file = file
        self.input = input
        self.failure = failure
    }
}

/// What happened to a take in a live rig: `slate run`'s `type: take` lines.
public struct TakeReport: Sendable {
    public enum Event: String, Sendable {
        case started, stopped, deleted, restored, exporting, exported, failed

        /// Whether it is an export's, under way or finished: the report counts takes.
        public var isExport: Bool { self == .exporting || self == .exported }
    }

    /// For a started take, its first frame's capture time; for a stopped one,
    /// when it was closed; otherwise when it happened.
    public var time: Instant
    public var event: Event
    /// The take's number in the work folder (from 1), or the number of takes
    /// exported (or being exported).
    public var take: Int?
    public var path: String?
    /// A stopped take's, or an export's (which drops no frames).
    public var summary: TakeSummary?
    /// A stopped take's sound.
    public var sound: SoundSummary?
    /// An export under way: the frames written so far and the part done.
    public var progress: ExportProgress?
    /// Why it failed, or how an export was made.
    public var message: String?
    /// For a started take, its first frame's instant on CLOCK_REALTIME (ns since 1970).
    public var realtimeNs: Int64?
    /// For a started take, its first frame's timecode (`10:07:03:12`).
    public var timecode: String?
    /// An export's proxy.
    public var proxy: String?

    public init(
        time: Instant, event: Event, take: Int? = nil, path: String? = nil, summary: TakeSummary? = nil,
        sound: SoundSummary? = nil, progress: ExportProgress? = nil, message: String? = nil, realtimeNs: Int64? = nil,
        timecode: String? = nil, proxy: String? = nil
    ) {
        self.proxy = proxy
        self.realtimeNs = realtimeNs
        self.timecode = timecode
        self.time = time
        self.event = event
        self.take = take
        self.path = path
        self.summary = summary
        self.sound = sound
        self.progress = progress
        self.message = message
    }

    /// What its line gives of the summary and progress: an export's drops are
    /// not counted, an export under way gives the frames written so far.
    var figures: (duration: Duration?, frames: Int?, dropped: Int?) {
        (summary?.duration, summary?.frames ?? progress?.frames, event.isExport ? nil : summary?.dropped)
    }
}

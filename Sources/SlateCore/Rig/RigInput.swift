/// What reaches a rig machine: its devices' events, devices coming and going,
/// time passing, capture turning on or off, and facts from the recorder and
/// the camera.
public enum RigInput: Sendable {
    /// A device appeared; the machine answers with an `attachment` effect.
    case attached(DeviceIdentity)
    /// A bound device went away at the instant given: its event in progress is cancelled.
    case detached(SourceID, at: Instant)
    /// One event from a bound device. `resync` marks the state changes libevdev
    /// reports after SYN_DROPPED.
    case event(InputEvent, from: SourceID, resync: Bool)
    /// Time passed: timers due by then fire.
    case time(Instant)
    /// Capture became active or inactive (inactive cancels the event in progress).
    case captureActive(Bool, at: Instant)
    /// The input ended (a recording's last event): buttons still down are
    /// cancelled, and no timer past it fires.
    case endOfStream(at: Instant)
    /// Something the recorder or the camera did, at the instant given.
    case fact(RigFact, at: Instant)
    /// Actions asked for by something other than a button (the HTTP API).
    case request(ActionRequest)
}

/// Actions to run as a button's handler would run them, from a `source`
/// such as `http`; a remote source, so they get the feedback sounds.
public struct ActionRequest: Sendable {
    public var steps: [Step]
    public var source: String
    public var time: Instant

    public init(steps: [Step], source: String, time: Instant) {
        self.steps = steps
        self.source = source
        self.time = time
    }
}

/// What the recorder and the camera report back to the rig: takes started,
/// closed, deleted and exported, how far an export has got, failures, and the
/// camera opened or lost.
public enum RigFact: Sendable {
    /// A take's first frame was captured at `firstFrame`; `realtimeNs` is that
    /// instant on CLOCK_REALTIME (nanoseconds since 1970).
    case takeStarted(take: Int, path: String, firstFrame: Instant, realtimeNs: Int64? = nil, timecode: String? = nil)
    /// A take was closed; `early` says why when it ended before it was asked to
    /// (disk full, camera lost).
    case takeStopped(StoppedTake, early: String?)
    /// A take that was asked for could not start.
    case takeStartFailed(String)
    case takeDeleted(take: Int, path: String, note: String? = nil)
    /// A take came back from the trash as take `take` (its number now).
    case takeRestored(take: Int, path: String)
    /// A delete the book counted found no such take (deleted or exported meanwhile): nothing was deleted.
    case takeDeleteFailed(String)
    /// Something failed that touched no take in progress.
    case recorderFailed(String)
    /// An export under way has got as far as this (at the pace `ExportProgressPace` sets).
    case exportProgress(ExportProgress)
    case exported(ExportSummary)
    /// An export failed; its `returned` takes are kept and available again.
    case exportFailed(String, returned: Int)
    /// The camera streams, with what it can do.
    case cameraOpened(CameraFacts)
    /// Switching the camera or its rate failed: `reason`, and the camera that
    /// streams on (when none does, the camera is lost instead). `unsplit`: the
    /// take that was to be split goes on whole (the switch failed before the
    /// camera was closed).
    case cameraSwitchFailed(String, keeping: CameraFacts, unsplit: Bool)
    /// The camera is gone (unplugged, or failed while streaming).
    case cameraLost(String)
    /// The camera was closed on purpose.
    case cameraClosed
    /// The camera's controls as it has them now: all of them when it opens,
    /// or those that changed (set by a control, by another program, or by
    /// the camera itself).
    case cameraControls([CameraControl], source: ControlSource)
    /// A `setControl` was carried out: the value asked and the value the driver kept.
    case controlSet(CameraControl.ID, asked: Int64, kept: Int64)
    /// A `setControl` failed.
    case controlFailed(CameraControl.ID, String)
    /// Values were set on the camera: `camera.settings` (as the camera
    /// opened, or a take started), or a preset loaded.
    case settingsApplied([SettingOutcome], source: ControlSource)
    /// A preset was saved, with how many controls it holds.
    case presetSaved(slot: Int, controls: Int)
    /// A preset could not be saved or loaded.
    case presetFailed(slot: Int, String)
}

/// A stopped take, as `type: take` lines report it: its number, its file, what
/// it holds and its sound.
public struct StoppedTake: Sendable, Equatable {
    public var take: Int
    public var path: String
    public var summary: TakeSummary
    /// The take's sound; nil for a picture-only take.
    public var sound: SoundSummary?

    public init(take: Int, path: String, summary: TakeSummary, sound: SoundSummary? = nil) {
        self.take = take
        self.path = path
        self.summary = summary
        self.sound = sound
    }
}

/// A finished export: how many takes went into which file, and how it was made.
public struct ExportSummary: Sendable, Equatable {
    public var takes: Int
    public var path: String
    public var duration: Duration
    public var frames: Int
    /// e.g. `stream copy`, `stream copy, sound copied`, or `re-encode (the mono filter is applied) with libx264`.
    public var method: String
    /// The export's proxy, joined from its takes'.
    public var proxy: String?

    public init(takes: Int, path: String, duration: Duration, frames: Int, method: String, proxy: String? = nil) {
        self.proxy = proxy
        self.takes = takes
        self.path = path
        self.duration = duration
        self.frames = frames
        self.method = method
    }
}

/// A camera that streams, and what the rig's commands can ask of it.
public struct CameraFacts: Sendable, Equatable {
    /// e.g. `/dev/video0 (vivid)`, or `testpattern`.
    public var name: String
    public var position: CameraPosition
    /// The rate asked of it, which `fps.toggle` switches from.
    public var fps: FrameRate
    /// The rate it streams at, which its takes have: the asked one, or the closest faster one it has
    /// (30 for 29.97 on most webcams).
    public var streamRate: FrameRate
    /// The highest zoom it reaches, at most the seed's 6x.
    public var zoomLimit: Double
    /// False when its frames are recorded as they come (pass-through) and it
    /// has no zoom control.
    public var zooms: Bool
    public var hasTorch: Bool

    public init(
        name: String, position: CameraPosition, fps: FrameRate, streamRate: FrameRate? = nil, zoomLimit: Double, zooms: Bool,
        hasTorch: Bool
    ) {
        self.name = name
        self.position = position
        self.fps = fps
        self.streamRate = streamRate ?? fps
        self.zoomLimit = zoomLimit
        self.zooms = zooms
        self.hasTorch = hasTorch
    }
}

import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// The recorder `slate run` drives: the profile's camera streaming into a
/// `TakeRecorder`, carrying out the rig machine's take and camera commands.
///
/// Nothing it is asked waits for the camera: opening, switching, zoom and the
/// torch go to the camera session's thread, takes to the pipeline's, exports
/// to their own. It keeps no books: what happened comes back from `collect()`
/// as `RigFact`s for the machine (takes started, closed, deleted and exported,
/// how far an export has got, failures, the camera opened, switched, closed or
/// lost). Switching the frame rate or the camera while recording splits the
/// take (a take file holds one format).
public final class LiveRecorder {
    /// Where takes go and which camera records them.
    public struct Settings {
        public var camera: CameraSpec
        /// `--camera`: a device path or `testpattern` instead of the profile's candidates.
        public var cameraOverride: String?
        /// The sound recorded with takes; nil: picture only.
        public var audio: AudioSpec?
        public var work: TakeFolder
        public var output: String
        /// Where each camera's presets file is kept.
        public var presets: String
        /// The rig's name, in its exports' chapters.
        public var rig: String = HostName.current
        /// Measures an encoder at a size and rate for the start-up probe (`EncoderChoice.Measure`):
        /// its speed, CPU and the peak memory measuring it took; nil to measure in this process.
        public var measureEncoder: EncoderChoice.Measure?

        public init(
            camera: CameraSpec, cameraOverride: String?, audio: AudioSpec? = nil, work: TakeFolder, output: String,
            presets: String = UserPath.state + "/presets",
            measureEncoder: EncoderChoice.Measure? = nil
        ) {
            self.presets = presets
            self.camera = camera
            self.cameraOverride = cameraOverride
            self.audio = audio
            self.work = work
            self.output = output
            self.measureEncoder = measureEncoder
        }
    }

    /// Why the camera could not be opened.
    public struct OpenFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where the camera is: none asked for, being opened, streaming (with its
    /// name), or being closed.
    private enum CameraState {
        case closed
        case opening
        case streaming(CameraFacts)
        case closing

        /// Whether the camera is being opened or closed.
        var isChanging: Bool {
            switch self {
            case .opening, .closing: true
            case .closed, .streaming: false
            }
        }
    }

    public var settings: Settings
    private var camera = CameraState.closed
    private var pending: [(fact: RigFact, time: Instant)] = []
    private let ledger: TakeLedger
    private let exports: TakeExports
    private let recorder: TakeRecorder
    private let clock: any RigClock
    /// The ALSA device takes record their sound from, if any.
    public let soundDevice: String?

    /// `onEvent` is called from the recorder's threads when `collect()` may
    /// have something. Takes a crash left behind in the work folder are recovered.
    /// The sound device is opened now: one that cannot be is an error, unless
    /// the profile calls it optional (takes are then picture only). The
    /// camera, the takes and the exports keep `clock`'s time.
    public init(
        settings: Settings, logger: Logger, clock: any RigClock = SystemClock(), onEvent: @escaping @Sendable () -> Void
    ) throws {
        self.settings = settings
        self.clock = clock
        ledger = try TakeLedger(folder: settings.work)
        for note in settings.work.recover(ledger) { logger.warning("\(note)") }
        for note in settings.work.purge(ledger, at: WallClock.microseconds(), hours: settings.work.trashHours) {
            logger.notice("\(note)")
        }
        exports = try TakeExports(ledger: ledger, clock: clock, onEvent: onEvent)
        var sound: SoundRecording?
        if let audio = settings.audio {
            do {
                sound = try SoundRecording(audio, clock: clock)
            } catch {
                guard audio.optional else { throw error }
                logger.warning("\(error); audio.optional is set, so takes are recorded without sound")
            }
        }
        if let sound { logger.info("recording sound from \(sound.description)") }
        soundDevice = sound?.alsaDevice
        recorder = try TakeRecorder(
            ledger: ledger, exports: exports,
            opener: CameraOpener(logger: logger, measureEncoder: settings.measureEncoder, clock: clock), sound: sound,
            logger: logger, onEvent: onEvent, clock: clock)
    }

    deinit { recorder.shutdown() }

    /// The finished takes in the work folder, available to delete or export.
    public var availableTakes: Int { ledger.availableCount }

    /// The device takes get their sound from (`testtone`, `hw:…`); nil for picture-only takes.
    public var soundSource: String? {
        guard let audio = settings.audio, audio.enabled, audio.device != .none else { return nil }
        return "\(audio.device)"
    }

    /// Those takes, oldest first.
    public var takeList: [TakeManifest.Take] { ledger.available }

    /// The takes in the work folder's trash, the last deleted last.
    public var trash: [TakeManifest.Take] { TakeTrash.contents(of: ledger.manifest) }

    /// The takes an export under way is joining: listed, but not numbered, until it is done.
    public var exportingTakes: [TakeManifest.Take] { ledger.reservedTakes }

    /// The framing preview, fed while it is watched.
    public var preview: PreviewFeed { recorder.preview }

    /// What the page shows of the recording as it goes.
    var gauges: RecorderGauges { recorder.gauges }

    /// Whether the camera streams.
    public var isStreaming: Bool {
        if case .streaming = camera { return true }
        return false
    }

    /// Whether the camera is being opened, or streams.
    public var isOpenOrOpening: Bool {
        switch camera {
        case .opening, .streaming: true
        case .closed, .closing: false
        }
    }

    /// The camera in use, e.g. `/dev/video0 (vivid)`.
    public var cameraName: String? {
        if case .streaming(let facts) = camera { return facts.name }
        return nil
    }

    /// Asks for the camera at `position` and `fps`; the rig learns what became
    /// of it from `collect()`, and `openFailure` says why it could not open.
    public func open(position: CameraPosition, fps: FrameRate) {
        guard case .closed = camera else { return }
        camera = .opening
        openFailure = nil
        recorder.open(opening(position: position, fps: fps))
    }

    /// Why the last `open` failed, once it has; nil while opening or streaming.
    public private(set) var openFailure: OpenFailure?

    /// Waits until the camera asked for streams or could not be opened.
    public func waitForCamera() { gatherWhileChanging() }

    /// Stops streaming and waits for a take in progress to close.
    public func close() {
        guard case .streaming = camera else { return }
        camera = .closing
        recorder.closeCamera()
        gatherWhileChanging()
    }

    /// Gathers the recorder's events while the camera is being opened or closed.
    private func gatherWhileChanging() {
        gather()
        while camera.isChanging {
            recorder.waitForEvents(milliseconds: 100)
            gather()
        }
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { exports.isExporting }

    /// Waits until the exports have news (their facts come from `collect()`)
    /// or `milliseconds` pass.
    public func waitForExports(milliseconds: Int32) { exports.waitForEvents(milliseconds: milliseconds) }

    /// What happened since the last call, each with when it was noted.
    public func collect() -> [(fact: RigFact, time: Instant)] {
        gather()
        defer { pending.removeAll() }
        return pending
    }

    /// Silences the takes' sound over a span (a feedback sound playing on its card), from any thread.
    public var soundMuter: @Sendable (Instant, Instant) -> Void {
        { [recorder] from, until in recorder.muteSound(from: from, until: until) }
    }

    /// Takes wait for buttons' commands up to `delay` late (`TakeRecorder.awaitButtons`).
    public func awaitButtons(delayedBy delay: Duration) { recorder.awaitButtons(delayedBy: delay) }

    /// Carries out a take command of the rig.
    public func perform(_ command: TakeCommand, at time: Instant) {
        switch command {
        case .start:
            guard isStreaming else {
                pending.append((.takeStartFailed("no camera"), time))
                return
            }
            recorder.start(at: time)
        case .stop:
            if isStreaming { recorder.stop(at: time) }
        case .deleteLast:
            recorder.deleteLast()
        case .delete(let choice):
            recorder.delete(choice)
        case .undelete(let file):
            recorder.undelete(file)
        case .mark(let name, let time):
            recorder.mark(name, at: time)
        case .export(let filter):
            let options = TakeExporter.Options(
                filter: filter, cleanUp: settings.camera.cleanUp, rig: settings.rig, name: settings.camera.exportName,
                zoneOffset: LocalTime.zoneOffset(at: WallClock.microseconds()))
            recorder.export(options, to: settings.output)
        case .preroll(let preroll):
            recorder.preroll(preroll)
        }
    }

    /// Carries out a camera command of the rig.
    public func apply(_ command: CameraCommand, at time: Instant) {
        guard case .streaming = camera else {
            if case .setControl(let id, _) = command { pending.append((.controlFailed(id, "no camera streams"), time)) }
            return
        }
        switch command {
        case .zoom(let factor): recorder.zoom(to: factor)
        case .torch(let on): recorder.torch(on)
        case .switchTo(let position, let fps, let splitting):
            recorder.switchTo(opening(position: position, fps: fps), splitting: splitting, at: time)
        case .setControl(let id, let value):
            recorder.setControl(id, value)
        }
    }

    /// Saves or loads a preset of the camera's controls, on the camera's thread.
    public func preset(_ command: PresetCommand, at time: Instant) {
        guard case .streaming = camera else {
            switch command {
            case .save(let slot), .load(let slot): pending.append((.presetFailed(slot: slot, "no camera streams"), time))
            }
            return
        }
        recorder.preset(command, in: settings.presets)
    }

    private func opening(position: CameraPosition, fps: FrameRate) -> CameraOpening {
        CameraOpening(position: position, fps: fps, spec: settings.camera, override: settings.cameraOverride)
    }

    /// Turns the recorder's and the exports' events into facts.
    private func gather() {
        let now = clock.now()
        for event in recorder.takeEvents() { note(event, at: now) }
        for event in exports.takeEvents() { note(event, at: now) }
    }

    private func note(_ event: TakeRecorder.Event, at now: Instant) {
        let folder = settings.work
        switch event {
        case .opened(let take, let number, let firstFrame):
            pending.append(
                (
                    .takeStarted(
                        take: number, path: folder.file(take.file), firstFrame: firstFrame, realtimeNs: take.started * 1000,
                        timecode: take.timecode), now
                ))
        case .closed(let take, let number, let early, let sound):
            let stopped = StoppedTake(take: number, path: folder.file(take.file), summary: take.summary, sound: sound)
            pending.append((.takeStopped(stopped, early: early), now))
        case .startFailed(let reason):
            pending.append((.takeStartFailed(reason), now))
        case .deleted(let take, let number):
            let hours = folder.trashHours
            let note = hours > 0 ? "in the trash for \(hours) h: take.undelete brings it back" : nil
            pending.append((.takeDeleted(take: number, path: folder.file(take.file), note: note), now))
        case .restored(let take, let number):
            pending.append((.takeRestored(take: number, path: folder.file(take.file)), now))
        case .failed(let reason):
            pending.append((.recorderFailed(reason), now))
        case .deleteFailed(let reason):
            pending.append((.takeDeleteFailed(reason), now))
        case .cameraOpened(let facts):
            camera = .streaming(facts)
            openFailure = nil
            pending.append((.cameraOpened(facts), now))
        case .cameraSwitchFailed(let reason, let kept, let unsplit):
            camera = .streaming(kept)
            pending.append((.cameraSwitchFailed(reason, keeping: kept, unsplit: unsplit), now))
        case .cameraOpenFailed(let reason):
            camera = .closed
            openFailure = OpenFailure(description: reason)
        case .sourceLost(let reason):
            camera = .closed
            pending.append((.cameraLost(reason), now))
        case .cameraClosed:
            camera = .closed
            pending.append((.cameraClosed, now))
        case .controls(let controls, let source):
            pending.append((.cameraControls(controls, source: source), now))
        case .controlSet(let id, let asked, let kept, let returned):
            pending.append((.controlSet(id, asked: asked, kept: kept), returned))
        case .controlFailed(let id, let reason):
            pending.append((.controlFailed(id, reason), now))
        case .settingsApplied(let outcomes, let source):
            pending.append((.settingsApplied(outcomes, source: source), now))
        case .presetSaved(let slot, let count):
            pending.append((.presetSaved(slot: slot, controls: count), now))
        case .presetFailed(let slot, let reason):
            pending.append((.presetFailed(slot: slot, reason), now))
        }
    }

    private func note(_ event: TakeExports.Event, at now: Instant) {
        switch event {
        case .progress(let progress):
            pending.append((.exportProgress(progress), now))
        case .exported(let outcome):
            let export = ExportSummary(
                takes: outcome.takes, path: outcome.path, duration: outcome.duration, frames: outcome.frames,
                method: Self.method(of: outcome) + (outcome.proxyFailure.map { "; \($0)" } ?? ""), proxy: outcome.proxy)
            pending.append((.exported(export), now))
        case .failed(let reason, let returned):
            pending.append((.exportFailed(reason, returned: returned), now))
        }
    }

    /// How an export was made, e.g. `stream copy`, `stream copy, sound copied` or
    /// `re-encode (the mono filter is applied) with libx264, sound re-encoded with aac (take-2.mp4 has no sound)`.
    static func method(of outcome: TakeExporter.Outcome) -> String {
        "\(outcome.method)" + (outcome.encoder.map { " with \($0)" } ?? "") + (outcome.soundSummary.map { ", sound \($0)" } ?? "")
    }
}

import Logging
import SlateCore

/// The recorder `slate run` drives: the profile's camera streaming into a
/// `TakeRecorder`, carrying out the rig machine's take and camera commands.
///
/// It keeps no books: what happened comes back from `collect()` as `RigFact`s
/// for the machine (takes started, closed, deleted and exported, failures, the
/// camera opened or lost). Exports run on a thread of their own. Switching the
/// frame rate or the camera closes the camera and opens it again; while
/// recording it splits the take (a take file holds one format).
public final class LiveRecorder {
    /// Where takes go and which camera records them.
    public struct Settings {
        public var camera: CameraSpec
        /// `--camera`: a device path or `testpattern` instead of the profile's candidates.
        public var cameraOverride: String?
        public var work: TakeFolder
        public var output: String
        /// Measures an encoder (codec, width, height, fps) for the start-up probe:
        /// its speed and the peak memory measuring it took; nil to measure in this process.
        public var measureEncoder: (@Sendable (String, Int, Int, Int) -> (speed: Double, memory: Int?))?

        public init(
            camera: CameraSpec, cameraOverride: String?, work: TakeFolder, output: String,
            measureEncoder: (@Sendable (String, Int, Int, Int) -> (speed: Double, memory: Int?))? = nil
        ) {
            self.camera = camera
            self.cameraOverride = cameraOverride
            self.work = work
            self.output = output
            self.measureEncoder = measureEncoder
        }
    }

    /// Why the camera could not be opened.
    public struct OpenFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The camera streaming and its recorder.
    private struct Session {
        var recorder: TakeRecorder
        var tuning: FrameTuning
        var camera: V4L2Camera?
        /// What the rig may ask of it; its name, position and rate.
        var facts: CameraFacts
    }

    /// Test-pattern size when the profile sets no `max-size`.
    static let testPatternSize = (width: 1920, height: 1080)

    public var settings: Settings
    private let log: Logger
    private let onEvent: @Sendable () -> Void
    private var session: Session?
    private var pending: [(fact: RigFact, time: Instant)] = []
    /// Encoders picked per size and rate, so a reopened camera is not probed again.
    private var encoders: [String: String] = [:]
    private let ledger: TakeLedger
    private let exports: TakeExports

    /// `onEvent` is called from the recording and export threads when `collect()`
    /// has something. Takes a crash left behind in the work folder are recovered.
    public init(settings: Settings, logger: Logger, onEvent: @escaping @Sendable () -> Void) throws(TakeFolder.Failure) {
        self.settings = settings
        self.log = logger
        self.onEvent = onEvent
        ledger = try TakeLedger(folder: settings.work)
        for note in settings.work.recover(ledger) { logger.warning("\(note)") }
        exports = TakeExports(ledger: ledger, onEvent: onEvent)
    }

    /// The finished takes in the work folder, available to delete or export.
    public var availableTakes: Int { ledger.availableCount }

    /// Whether the camera streams.
    public var isStreaming: Bool { session != nil }

    /// The camera in use, e.g. `/dev/video0 (vivid)`.
    public var cameraName: String? { session?.facts.name }

    /// The candidates tried for a position, in order.
    public func candidates(for position: CameraPosition) -> [String] {
        if let override = settings.cameraOverride { return [override] }
        if let listed = settings.camera.candidates[position], !listed.isEmpty { return listed }
        return position == .back ? ["/dev/video*"] : []
    }

    /// Opens the camera at `position` and `fps` and starts streaming; the
    /// rig learns of it from `collect()`.
    public func open(position: CameraPosition, fps: Int) throws(OpenFailure) {
        guard session == nil else { return }
        use(try makeSession(position: position, fps: fps))
    }

    /// Stops streaming; a take in progress is closed.
    public func close() {
        guard let current = session else { return }
        current.recorder.shutdown()
        session = nil
        gather(current.recorder, now: MonotonicClock.now())
        pending.append((.cameraClosed, MonotonicClock.now()))
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { exports.isExporting }

    /// Waits for the exports under way to end (their facts come from `collect()`).
    public func finishExports() { exports.finish() }

    /// What happened since the last call, each with when it was noted. A lost
    /// camera (its recorder stopped) closes the session.
    public func collect() -> [(fact: RigFact, time: Instant)] {
        let now = MonotonicClock.now()
        if let current = session, gather(current.recorder, now: now) {
            current.recorder.shutdown()
            session = nil
        }
        for event in exports.takeEvents() { note(event, at: now) }
        defer { pending.removeAll() }
        return pending
    }

    /// Carries out a take command of the rig.
    public func perform(_ command: TakeCommand, at time: Instant) {
        switch command {
        case .start:
            guard let session else {
                pending.append((.takeStartFailed("no camera"), time))
                return
            }
            session.recorder.start(at: time)
        case .stop:
            session?.recorder.stop(at: time)
        case .deleteLast:
            if let session {
                session.recorder.deleteLast()
            } else if let event = TakeRecorder.deleteLast(in: ledger) {
                note(event, at: time)
            }
        case .export(let filter):
            let options = TakeExporter.Options(filter: filter)
            if let session {
                session.recorder.export(options, to: settings.output)
            } else {
                exports.export(ledger.reserveAvailable(), options: options, to: settings.output)
            }
        }
    }

    /// Carries out a camera command of the rig.
    public func apply(_ command: CameraCommand, at time: Instant) {
        guard let session else { return }
        switch command {
        case .zoom(let factor):
            _ = session.tuning.aim(at: factor)
        case .torch(let on):
            if !setTorch(on, on: session) {
                pending.append((.recorderFailed("\(session.facts.name): the torch could not be turned \(on ? "on" : "off")"), time))
            }
        case .switchTo(let position, let fps, let splitting):
            reopen(position: position, fps: fps, splitting: splitting, at: time)
        }
    }

    /// Whether the camera has a flash LED control.
    private static func hasTorch(_ camera: V4L2Camera) -> Bool {
        (try? camera.control(.flashLEDMode)) != nil
    }

    /// Sets the camera's flash LED to torch mode or off; false when it cannot.
    private func setTorch(_ on: Bool, on session: Session) -> Bool {
        guard let camera = session.camera, Self.hasTorch(camera) else { return false }
        // V4L2_FLASH_LED_MODE_TORCH is 2, NONE 0.
        return (try? camera.set(.flashLEDMode, on ? 2 : 0)) != nil
    }

    /// Streams from `opened`; the rig sets its zoom and torch when it learns of it.
    private func use(_ opened: Session) {
        session = opened
        pending.append((.cameraOpened(opened.facts), MonotonicClock.now()))
    }

    /// Reopens the camera with another position or rate, a take in progress
    /// split at `time` when `splitting`. The camera is stopped and closed
    /// first. When the new one cannot be opened the old one streams on, and
    /// the rig hears why; when neither can, the camera is lost.
    private func reopen(position next: CameraPosition, fps rate: Int, splitting: Bool, at time: Instant) {
        guard let current = session else { return }
        let present = CameraDirectory.present()
        let kept = current.facts
        if next != kept.position, CameraCandidates.pick(candidates(for: next), present: present) == nil {
            pending.append(
                (.cameraSwitchFailed("no \(next.rawValue) camera is present", keeping: kept, unsplit: splitting), time))
            return
        }
        if splitting { current.recorder.stop(at: time) }
        current.recorder.shutdown()
        session = nil
        gather(current.recorder, now: MonotonicClock.now())
        do {
            use(try makeSession(position: next, fps: rate, present: present))
        } catch {
            log.warning("\(error); keeping the \(kept.position.rawValue) camera at \(kept.fps) fps")
            do {
                let again = try makeSession(position: kept.position, fps: kept.fps, present: present)
                session = again
                pending.append((.cameraSwitchFailed("\(error)", keeping: again.facts, unsplit: false), time))
            } catch {
                pending.append((.cameraLost("\(error)"), MonotonicClock.now()))
                return
            }
        }
        if splitting { session?.recorder.start(at: time) }
    }

    /// Opens the first candidate for `position` among the cameras `present`.
    private func makeSession(
        position: CameraPosition, fps: Int, present: [CameraCandidates.Present] = CameraDirectory.present()
    ) throws(OpenFailure) -> Session {
        let spec = settings.camera
        let listed = candidates(for: position)
        guard let choice = CameraCandidates.pick(listed, present: present) else {
            let cameras = present.isEmpty ? "none" : present.map { "\($0.path) (\($0.card))" }.joined(separator: ", ")
            throw OpenFailure(
                description: "no \(position.rawValue) camera: none of \(listed.joined(separator: ", ")) is present "
                    + "(cameras present: \(cameras))")
        }
        let source: FrameSource
        var camera: V4L2Camera?
        let name: String
        do {
            switch choice {
            case .testPattern:
                let size = spec.maxSize ?? Self.testPatternSize
                source = TestPatternSource(width: size.width, height: size.height, fps: fps)
                name = "testpattern"
            case .device(let path):
                let opened = try V4L2FrameSource(
                    path: path, fps: fps, maxSize: spec.maxSize, passThrough: spec.passthrough)
                log.info("\(path) (\(opened.camera.card)): \(opened.choice)")
                source = opened
                camera = opened.camera
                name = "\(path) (\(opened.camera.card))"
            }
        } catch {
            throw OpenFailure(description: "\(error)")
        }
        let mirrored = spec.mirror ?? (position == .front)
        let tuning = makeTuning(camera: camera, mirrored: mirrored)
        let passThrough = spec.passthrough && source.codec != nil
        if passThrough, tuning.mirrored {
            log.warning("\(name) is recorded as it comes (pass-through) and has no horizontal flip control: takes are not mirrored")
        }
        let codec = passThrough ? spec.codecs.first ?? "h264" : pickEncoder(width: source.width, height: source.height, fps: source.fps)
        do {
            let recorder = try TakeRecorder(
                source: source, ledger: ledger, exports: exports, codecs: [codec] + spec.codecs.filter { $0 != codec },
                passThrough: passThrough, preroll: spec.preroll, rotation: spec.orientation, tuning: tuning, logger: log,
                onEvent: onEvent)
            log.info("recording \(name) at \(source.width)x\(source.height) \(source.fps) fps with \(recorder.encoderName)")
            let facts = CameraFacts(
                name: name, position: position, fps: fps, zoomLimit: tuning.maximumZoom,
                zooms: !passThrough || tuning.zoomsInCamera, hasTorch: camera.map(Self.hasTorch) ?? false)
            return Session(recorder: recorder, tuning: tuning, camera: camera, facts: facts)
        } catch {
            source.stop()
            throw OpenFailure(description: "\(error)")
        }
    }

    /// Mirroring by the camera's HFLIP control when it has one; zoom by its
    /// ZOOM_ABSOLUTE control when it has one (its range mapped onto 1x-6x).
    private func makeTuning(camera: V4L2Camera?, mirrored: Bool) -> FrameTuning {
        var softwareMirror = mirrored
        if let camera, (try? camera.control(.hflip)) != nil, (try? camera.set(.hflip, mirrored ? 1 : 0)) != nil {
            softwareMirror = false
        }
        guard let camera, let control = try? camera.control(.zoomAbsolute), control.maximum > control.minimum else {
            return FrameTuning(mirrored: softwareMirror)
        }
        let log = self.log
        return FrameTuning(mirrored: softwareMirror) { factor in
            let span = Double(control.maximum - control.minimum)
            let value = control.minimum + Int64(((factor - 1) / (ZoomRamp.limit - 1) * span).rounded())
            do {
                _ = try camera.set(.zoomAbsolute, value)
            } catch {
                log.warning("zoom: \(error)")
            }
        }
    }

    /// The first codec of the profile's list that keeps up at this size and rate,
    /// by a short speed probe (once per size and rate).
    private func pickEncoder(width: Int, height: Int, fps: Int) -> String {
        let codecs = settings.camera.codecs
        let key = "\(width)x\(height)@\(fps)"
        if let known = encoders[key] { return known }
        let measure = settings.measureEncoder.map { measure in { (codec: String) in measure(codec, width, height, fps) } }
        guard let (codec, lines) = EncoderChoice.probing(codecs: codecs, width: width, height: height, fps: fps, measure: measure)
        else {
            return codecs.first ?? "h264"
        }
        for line in lines { log.info("\(line)") }
        encoders[key] = codec
        return codec
    }

    /// Turns a recorder's events into facts; returns whether its source was lost.
    @discardableResult
    private func gather(_ recorder: TakeRecorder, now: Instant) -> Bool {
        var lost = false
        for event in recorder.takeEvents() {
            if case .sourceLost = event { lost = true }
            note(event, at: now)
        }
        return lost
    }

    private func note(_ event: TakeRecorder.Event, at now: Instant) {
        let folder = settings.work
        switch event {
        case .opened(let take, let number, let firstFrame):
            pending.append((.takeStarted(take: number, path: folder.file(take.file), firstFrame: firstFrame), now))
        case .closed(let take, let number, let early):
            let summary = TakeSummary(
                take: number, path: folder.file(take.file), duration: take.duration, frames: take.frames,
                dropped: take.dropped)
            pending.append((.takeStopped(summary, early: early), now))
        case .startFailed(let reason):
            pending.append((.takeStartFailed(reason), now))
        case .deleted(let take, let number):
            pending.append((.takeDeleted(take: number, path: folder.file(take.file)), now))
        case .failed(let reason):
            pending.append((.recorderFailed(reason), now))
        case .sourceLost(let reason):
            pending.append((.cameraLost(reason), now))
        }
    }

    private func note(_ event: TakeExports.Event, at now: Instant) {
        switch event {
        case .exported(let outcome):
            let export = ExportSummary(
                takes: outcome.takes, path: outcome.path, duration: outcome.duration, frames: outcome.frames,
                method: Self.method(of: outcome))
            pending.append((.exported(export), now))
        case .failed(let reason, let returned):
            pending.append((.exportFailed(reason, returned: returned), now))
        }
    }

    /// How an export was made, e.g. `stream copy` or `re-encode (filter mono) with libx264`.
    static func method(of outcome: TakeExporter.Outcome) -> String {
        "\(outcome.method)" + (outcome.encoder.map { " with \($0)" } ?? "")
    }
}

import Logging
import SlateCore

/// The recorder `slate run` drives: the profile's camera streaming into a
/// `TakeRecorder`, with the macro runner's commands carried out for real.
///
/// Outcomes are answered at once, as `RecorderModel` answers them; what really
/// happened to the takes comes afterwards from `collect()`, as `TakeReport`s,
/// and the books are settled with it where they part (a take that could not
/// start or ended early, a failed export, a lost camera). Exports run on a
/// thread of their own. Switching the frame rate or the camera closes the
/// camera and opens it again; while recording it splits the take (a take file
/// holds one format).
public final class LiveRecorder: Recorder {
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
        var name: String
        /// Compressed frames are written as they come: no digital zoom or software mirroring.
        var passesThrough: Bool
    }

    /// Test-pattern size when the profile sets no `max-size`.
    static let testPatternSize = (width: 1920, height: 1080)

    public var settings: Settings
    private let log: Logger
    private let onEvent: @Sendable () -> Void
    private var session: Session?
    private var pending: [TakeReport] = []
    /// Encoders picked per size and rate, so a reopened camera is not probed again.
    private var encoders: [String: String] = [:]
    private let ledger: TakeLedger
    private let exports: TakeExports

    /// The books as commands are answered, as `slate replay` keeps them;
    /// settled with what the recording and export threads report when they part.
    private let model: RecorderModel

    /// `onEvent` is called from the recording and export threads when `collect()`
    /// has something. Takes a crash left behind in the work folder are recovered.
    public init(settings: Settings, logger: Logger, onEvent: @escaping @Sendable () -> Void) throws(TakeFolder.Failure) {
        self.settings = settings
        self.log = logger
        self.onEvent = onEvent
        ledger = try TakeLedger(folder: settings.work)
        for note in settings.work.recover(ledger) { logger.warning("\(note)") }
        exports = TakeExports(ledger: ledger, onEvent: onEvent)
        model = RecorderModel(camera: settings.camera, takes: ledger.availableCount)
    }

    public var isRecording: Bool { model.isRecording }

    /// Whether the camera streams.
    public var isStreaming: Bool { session != nil }

    /// The camera in use, e.g. `/dev/video0 (vivid)`.
    public var cameraName: String? { session?.name }

    /// The candidates tried for a position, in order.
    public func candidates(for position: CameraPosition) -> [String] {
        if let override = settings.cameraOverride { return [override] }
        if let listed = settings.camera.candidates[position], !listed.isEmpty { return listed }
        return position == .back ? ["/dev/video*"] : []
    }

    /// Opens the camera for the current position and frame rate, with the
    /// current zoom and torch, and starts streaming.
    public func open() throws(OpenFailure) {
        guard session == nil else { return }
        use(try makeSession(position: model.position, fps: model.fps))
    }

    /// Stops streaming; a take in progress is closed.
    public func close() {
        guard let current = session else { return }
        current.recorder.shutdown()
        session = nil
        gather(current.recorder, now: MonotonicClock.now())
        model.settle(takes: ledger.availableCount)
    }

    /// Whether an export is queued or running.
    public var isExporting: Bool { exports.isExporting }

    /// Waits for the exports under way to end (their reports come from `collect()`).
    public func finishExports() { exports.finish() }

    /// What happened to takes since the last call. A lost camera (its recorder
    /// stopped) closes the session and is returned as `lost`.
    public func collect() -> (reports: [TakeReport], lost: String?) {
        var lost: String?
        let now = MonotonicClock.now()
        if let current = session {
            lost = gather(current.recorder, now: now)
            if lost != nil {
                current.recorder.shutdown()
                session = nil
                model.settle(takes: ledger.availableCount)
            }
        }
        for event in exports.takeEvents() { note(event, at: now) }
        defer { pending.removeAll() }
        return (pending, lost)
    }

    public func perform(_ command: RecorderCommand, at time: Instant) -> RecorderOutcome {
        switch command {
        case .start:
            guard let session else { return .ignored("no camera") }
            let outcome = model.perform(command, at: time)
            if case .started = outcome { session.recorder.start(at: time) }
            return outcome
        case .stop:
            let outcome = model.perform(command, at: time)
            if case .stopped = outcome { session?.recorder.stop(at: time) }
            return outcome
        case .deleteLast:
            let outcome = model.perform(command, at: time)
            guard case .deleted = outcome else { return outcome }
            if let session {
                session.recorder.deleteLast()
            } else if let event = TakeRecorder.deleteLast(in: ledger) {
                note(event, at: time)
            }
            return outcome
        case .export:
            if model.isRecording { session?.recorder.stop(at: time) }
            let outcome = model.perform(command, at: time)
            guard case .exported = outcome else { return outcome }
            let options = TakeExporter.Options(filter: model.filter)
            if let session {
                session.recorder.export(options, to: settings.output)
            } else {
                exports.export(ledger.reserveAvailable(), options: options, to: settings.output)
            }
            return outcome
        case .zoomStep, .zoomSet:
            if let session, session.passesThrough, !session.tuning.zoomsInCamera {
                return .ignored("\(session.name) is recorded as it comes (pass-through) and has no zoom control")
            }
            let outcome = model.perform(command, at: time)
            _ = session?.tuning.aim(at: model.zoom)
            return outcome
        case .fpsToggle:
            if let reason = reopen(position: model.position, fps: model.fps == 60 ? 30 : 60, at: time) {
                return .ignored(reason)
            }
            return model.perform(command, at: time)
        case .cameraToggle:
            if let reason = reopen(position: model.position == .back ? .front : .back, fps: model.fps, at: time) {
                return .ignored(reason)
            }
            return model.perform(command, at: time)
        case .torchToggle:
            guard let session, setTorch(!model.torch, on: session) else {
                return .ignored("\(session?.name ?? "no camera") has no torch")
            }
            return model.perform(command, at: time)
        case .filterNext:
            return model.perform(command, at: time)
        }
    }

    /// Sets the camera's flash LED to torch mode or off; false when it has none.
    private func setTorch(_ on: Bool, on session: Session) -> Bool {
        guard let camera = session.camera, (try? camera.control(.flashLEDMode)) != nil else { return false }
        // V4L2_FLASH_LED_MODE_TORCH is 2, NONE 0.
        return (try? camera.set(.flashLEDMode, on ? 2 : 0)) != nil
    }

    /// Streams from `opened` with the current zoom and torch.
    private func use(_ opened: Session) {
        session = opened
        model.zoomLimit = opened.tuning.maximumZoom
        if model.zoom > model.zoomLimit { _ = model.perform(.zoomSet(model.zoomLimit), at: Instant(microseconds: 0)) }
        _ = opened.tuning.aim(at: model.zoom)
        if model.torch, !setTorch(true, on: opened) { _ = model.perform(.torchToggle, at: Instant(microseconds: 0)) }
    }

    /// Reopens the camera with another position or rate, a take in progress
    /// split at `time` (the model counts the split when it records the switch).
    /// The camera is stopped and closed first. Returns why not, keeping the
    /// current camera, when the new one cannot be opened.
    private func reopen(position next: CameraPosition, fps rate: Int, at time: Instant) -> String? {
        guard let current = session else { return nil }
        let present = CameraDirectory.present()
        if next != model.position, CameraCandidates.pick(candidates(for: next), present: present) == nil {
            return "no \(next.rawValue) camera is present"
        }
        if model.isRecording { current.recorder.stop(at: time) }
        current.recorder.shutdown()
        session = nil
        gather(current.recorder, now: MonotonicClock.now())
        let reason: String?
        do {
            use(try makeSession(position: next, fps: rate, present: present))
            reason = nil
        } catch {
            log.warning("\(error); keeping the \(model.position.rawValue) camera at \(model.fps) fps")
            reason = "\(error)"
            do {
                use(try makeSession(position: model.position, fps: model.fps, present: present))
            } catch {
                model.settle(takes: ledger.availableCount)
                return reason
            }
        }
        if model.isRecording { session?.recorder.start(at: time) }
        return reason
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
            return Session(recorder: recorder, tuning: tuning, camera: camera, name: name, passesThrough: passThrough)
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

    /// Turns a recorder's events into reports; returns why its source was lost, if it was.
    @discardableResult
    private func gather(_ recorder: TakeRecorder, now: Instant) -> String? {
        var lost: String?
        for event in recorder.takeEvents() {
            if case .sourceLost(let reason) = event { lost = reason }
            note(event, at: now)
        }
        return lost
    }

    /// Reports what happened to a take; settles the books where they part.
    private func note(_ event: TakeRecorder.Event, at now: Instant) {
        let folder = settings.work
        switch event {
        case .opened(let take, let number, let firstFrame):
            pending.append(TakeReport(time: firstFrame, event: .started, take: number, path: folder.file(take.file)))
        case .closed(let take, let number, let early):
            pending.append(
                TakeReport(
                    time: now, event: .stopped, take: number, path: folder.file(take.file), duration: take.duration,
                    frames: take.frames, dropped: take.dropped))
            if let early {
                pending.append(TakeReport(time: now, event: .failed, message: early))
                if model.isRecording { model.settle(takes: model.takes + 1, recording: false) }
            }
        case .startFailed(let reason):
            pending.append(TakeReport(time: now, event: .failed, message: reason))
            if model.isRecording { model.settle(takes: model.takes, recording: false) }
        case .deleted(let take, let number):
            pending.append(TakeReport(time: now, event: .deleted, take: number, path: folder.file(take.file)))
        case .failed(let reason):
            pending.append(TakeReport(time: now, event: .failed, message: reason))
        case .sourceLost(let reason):
            pending.append(TakeReport(time: now, event: .failed, message: "camera lost: \(reason)"))
        }
    }

    private func note(_ event: TakeExports.Event, at now: Instant) {
        switch event {
        case .exported(let outcome):
            pending.append(
                TakeReport(
                    time: now, event: .exported, take: outcome.takes, path: outcome.path, duration: outcome.duration,
                    frames: outcome.frames, message: Self.method(of: outcome)))
        case .failed(let reason, let returned):
            model.settle(takes: model.takes + returned, recording: model.isRecording)
            pending.append(TakeReport(time: now, event: .failed, message: "export: \(reason)"))
        }
    }

    /// How an export was made, e.g. `stream copy` or `re-encode (filter mono) with libx264`.
    static func method(of outcome: TakeExporter.Outcome) -> String {
        "\(outcome.method)" + (outcome.encoder.map { " with \($0)" } ?? "")
    }
}

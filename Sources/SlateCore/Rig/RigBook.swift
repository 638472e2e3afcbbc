/// The rig's one set of books on its recorder and camera: recording or not,
/// how many finished takes are available, zoom, frame rate, position, torch
/// and export filter; and the teleprompter, which scrolls while a take records.
///
/// Commands are answered at once from the books, with the effects that carry
/// them out; what the recorder and the camera then report (`RigFact`) is
/// entered where it parts from the answer: a take that could not start or
/// ended early, a failed export, a camera lost or a switch that failed.
/// `slate replay` and `slate monitor` keep the same books with a modelled
/// camera, which does whatever it is asked.
///
/// Switching the frame rate or the camera while recording splits the take: a
/// take file holds one camera format, so the take so far is closed and the next
/// one starts with the new camera.
public struct RigBook: Sendable {
    /// The camera as the books know it.
    public enum Camera: Sendable, Equatable {
        /// No real camera: every command succeeds (replay, monitor).
        case modelled
        /// Not streaming (not opened yet, lost, or closed).
        case absent
        case streaming(CameraFacts)
    }

    /// Zoom range, as in the seed's CaptureSessionController.
    public static let zoomRange: ClosedRange<Double> = 1...ZoomRamp.limit
    /// Zoom change for one step (one knob detent).
    public static let zoomPerStep = 0.1

    public private(set) var isRecording = false
    public private(set) var takes = 0
    public private(set) var zoom = 1.0
    /// The zoom before a switch to the other camera, which starts at 1×:
    /// given back if the switch fails and the camera is kept.
    private var zoomBeforeSwitch: Double?
    public private(set) var fps: FrameRate
    public private(set) var position: CameraPosition
    public private(set) var torch = false
    public private(set) var filter: ExportFilter
    /// Video kept from before each press.
    public private(set) var preroll: Duration
    public private(set) var camera: Camera
    /// The teleprompter, when the profile has one and its script was read.
    public private(set) var prompter: Prompter?
    /// Whether the take in progress has started recording (its first frame came).
    private var recordingOpened = false
    /// When the take in progress had its first frame (at its start, for a modelled camera).
    private var takeStart: Instant?
    /// The markers put in the take in progress.
    private var markers = 0

    public init(
        fps: FrameRate = FrameRate(60), position: CameraPosition = .back, filter: ExportFilter = .none, preroll: Duration = .zero,
        takes: Int = 0, camera: Camera = .modelled, prompter: Prompter? = nil
    ) {
        self.prompter = prompter
        self.fps = fps
        self.preroll = preroll
        self.position = position
        self.filter = filter
        self.takes = takes
        self.camera = camera
    }

    /// The state a profile's camera section starts with.
    public init(camera spec: CameraSpec, takes: Int = 0, camera: Camera = .modelled, prompter: Prompter? = nil) {
        self.init(
            fps: spec.fps, position: spec.position, filter: spec.filter, preroll: spec.preroll, takes: takes,
            camera: camera, prompter: prompter)
    }

    /// The prompter's script was read again (saved from the page) or its
    /// profile was reloaded: `new` goes on from where the prompter stood at
    /// `time`, and scrolls if a take records; nil when the profile has none now.
    public mutating func replacePrompter(with new: Prompter?, at time: Instant) {
        guard let new else {
            prompter = nil
            return
        }
        if let old = prompter {
            prompter = new.continuing(from: old, at: time)
        } else {
            var started = new
            if isRecording && (recordingOpened || camera == .modelled) { started.setRecording(true, at: time) }
            prompter = started
        }
    }

    /// Whether a camera streams (or is modelled).
    public var hasCamera: Bool { camera != .absent }

    /// The rate frames come at: the streaming camera's, else the one asked.
    public var streamRate: FrameRate {
        if case .streaming(let facts) = camera { return facts.streamRate }
        return fps
    }

    /// The highest zoom the camera reaches.
    public var zoomLimit: Double {
        if case .streaming(let facts) = camera { return min(facts.zoomLimit, Self.zoomRange.upperBound) }
        return Self.zoomRange.upperBound
    }

    /// Answers `command` at `time`, appending the effects that carry it out.
    public mutating func answer(
        _ command: RecorderCommand, at time: Instant, into effects: inout [RigEffect]
    ) -> RecorderOutcome {
        switch command {
        case .start:
            guard hasCamera else { return .ignored("no camera") }
            guard !isRecording else { return .ignored("already recording") }
            isRecording = true
            recordingOpened = false
            takeStart = camera == .modelled ? time : nil
            markers = 0
            // A modelled camera's take starts at the press: no first frame is reported.
            if camera == .modelled { prompter?.setRecording(true, at: time) }
            effects.append(.take(.start, at: time))
            return .started(take: takes + 1)
        case .stop:
            guard isRecording else { return .ignored("not recording") }
            prompter?.setRecording(false, at: time)
            isRecording = false
            recordingOpened = false
            takes += 1
            effects.append(.take(.stop, at: time))
            return .stopped(take: takes)
        case .deleteLast:
            guard takes > 0, !isRecording else { return .ignored(isRecording ? "recording" : "no takes") }
            defer { takes -= 1 }
            effects.append(.take(.deleteLast, at: time))
            return .deleted(take: takes)
        case .delete(let choice):
            guard !isRecording else { return .ignored("recording") }
            guard takes > 0 else { return .ignored("no takes") }
            if case .number(let number) = choice, !(1...takes).contains(number) {
                return .ignored("no take \(number) (takes 1 to \(takes))")
            }
            takes -= 1
            effects.append(.take(.delete(choice), at: time))
            if case .number(let number) = choice { return .deleted(take: number) }
            return .deleting(file: choice.description)
        case .mark(let name):
            guard isRecording else { return .ignored("not recording") }
            guard markers < TakeMarker.limit else {
                return .ignored("take \(takes + 1) has \(TakeMarker.limit) markers, the most a take keeps")
            }
            markers += 1
            effects.append(.take(.mark(name, at: time), at: time))
            return .marked(take: takes + 1, at: takeStart.map { max(.zero, time - $0) } ?? .zero, name: name)
        case .undelete(let file):
            guard !isRecording else { return .ignored("recording") }
            effects.append(.take(.undelete(file), at: time))
            return .restoring(file: file)
        case .export(let chosen):
            if isRecording { _ = answer(.stop, at: time, into: &effects) }
            guard takes > 0 else { return .ignored("no takes") }
            defer { takes = 0 }
            effects.append(.take(.export(chosen ?? filter), at: time))
            return .exporting(takes: takes)
        case .zoomStep(let steps):
            return setZoom(zoom + steps * Self.zoomPerStep, at: time, into: &effects)
        case .zoomSet(let factor):
            return setZoom(factor, at: time, into: &effects)
        case .fpsToggle:
            guard let partner = fps.partner else { return .ignored("\(fps) fps has no double or half to switch to") }
            return switchCamera(position: position, fps: partner, at: time, into: &effects)
        case .cameraToggle:
            return switchCamera(position: position == .back ? .front : .back, fps: fps, at: time, into: &effects)
        case .torchToggle:
            switch camera {
            case .absent: return .ignored("no camera has no torch")
            case .streaming(let facts) where !facts.hasTorch: return .ignored("\(facts.name) has no torch")
            default: break
            }
            torch.toggle()
            effects.append(.camera(.torch(torch), at: time))
            return .torch(torch)
        case .filterNext:
            filter = filter.next
            return .filter(filter.rawValue)
        case .fpsSet(let rate):
            guard rate != fps else { return .fps(rate) }
            return switchCamera(position: position, fps: rate, at: time, into: &effects)
        case .cameraSet(let next):
            guard next != position else { return .camera(next) }
            return switchCamera(position: next, fps: fps, at: time, into: &effects)
        case .filterSet(let next):
            filter = next
            return .filter(filter.rawValue)
        case .prerollSet(let duration):
            preroll = duration
            effects.append(.take(.preroll(duration), at: time))
            return .preroll(duration)
        case .prompter(let action):
            guard var prompter else { return .ignored("no prompter script") }
            defer { self.prompter = prompter }
            return .prompter(prompter.perform(action, at: time))
        }
    }

    private mutating func setZoom(_ factor: Double, at time: Instant, into effects: inout [RigEffect]) -> RecorderOutcome {
        if case .streaming(let facts) = camera, !facts.zooms {
            return .ignored("\(facts.name) is recorded as it comes (pass-through) and has no zoom control")
        }
        let clamped = min(max(factor, Self.zoomRange.lowerBound), zoomLimit)
        zoom = (clamped * 100).rounded() / 100
        effects.append(.camera(.zoom(zoom), at: time))
        return .zoom(zoom)
    }

    /// A switch of position or rate; a take in progress is split (the take so
    /// far counted now). Without a camera it applies when one is next opened.
    private mutating func switchCamera(
        position next: CameraPosition, fps rate: FrameRate, at time: Instant, into effects: inout [RigEffect]
    ) -> RecorderOutcome {
        let splitting = isRecording
        if splitting {
            takes += 1
            // The next take's first frame is still to come.
            takeStart = nil
            markers = 0
        }
        let outcome: RecorderOutcome = next != position ? .camera(next) : .fps(rate)
        // The other camera starts at 1×, as the iOS app's toggleCameraPosition
        // resets the zoom (applied when it opens); the camera kept by a switch
        // that fails keeps its zoom.
        if next != position, zoom != 1 {
            if case .streaming = camera { zoomBeforeSwitch = zoomBeforeSwitch ?? zoom }
            zoom = 1
        }
        position = next
        fps = rate
        if case .streaming = camera { effects.append(.camera(.switchTo(next, fps: rate, splitting: splitting), at: time)) }
        return outcome
    }

    /// Enters what the recorder or the camera reported at `time`, appending the
    /// report lines and the effects it calls for.
    public mutating func enter(_ fact: RigFact, at time: Instant, into effects: inout [RigEffect]) {
        switch fact {
        case .takeStarted(let take, let path, let firstFrame, let realtimeNs, let timecode):
            if isRecording {
                recordingOpened = true
                takeStart = firstFrame
                markers = 0
                prompter?.setRecording(true, at: firstFrame)
            }
            report(
                TakeReport(
                    time: firstFrame, event: .started, take: take, path: path, realtimeNs: realtimeNs, timecode: timecode),
                into: &effects)
        case .takeStopped(let stopped, let early):
            report(
                TakeReport(
                    time: time, event: .stopped, take: stopped.take, path: stopped.path, summary: stopped.summary,
                    sound: stopped.sound),
                into: &effects)
            if let early {
                report(TakeReport(time: time, event: .failed, message: early), into: &effects)
                closedUnasked(started: true, at: time)
            }
        case .takeStartFailed(let reason):
            report(TakeReport(time: time, event: .failed, message: reason), into: &effects)
            prompter?.setRecording(false, at: time)
            isRecording = false
            recordingOpened = false
        case .takeDeleted(let take, let path, let note):
            report(TakeReport(time: time, event: .deleted, take: take, path: path, message: note), into: &effects)
        case .takeRestored(let take, let path):
            takes += 1
            report(TakeReport(time: time, event: .restored, take: take, path: path), into: &effects)
        case .recorderFailed(let reason):
            report(TakeReport(time: time, event: .failed, message: reason), into: &effects)
        case .takeDeleteFailed(let reason):
            takes += 1
            report(TakeReport(time: time, event: .failed, message: reason), into: &effects)
        case .exportProgress(let progress):
            report(
                TakeReport(time: time, event: .exporting, take: progress.takes, progress: progress),
                into: &effects)
        case .exported(let export):
            report(
                TakeReport(
                    time: time, event: .exported, take: export.takes, path: export.path,
                    summary: TakeSummary(duration: export.duration, frames: export.frames), message: export.method,
                    proxy: export.proxy),
                into: &effects)
        case .exportFailed(let reason, let returned):
            takes += returned
            report(TakeReport(time: time, event: .failed, message: "export: \(reason)"), into: &effects)
        case .cameraOpened(let facts):
            zoomBeforeSwitch = nil
            opened(facts, at: time, into: &effects)
        case .cameraSwitchFailed(let reason, let kept, let unsplit):
            report(TakeReport(time: time, event: .failed, message: reason), into: &effects)
            if unsplit { takes -= 1 }
            if let before = zoomBeforeSwitch { zoom = before }
            zoomBeforeSwitch = nil
            opened(kept, at: time, into: &effects)
        case .cameraLost(let reason):
            report(TakeReport(time: time, event: .failed, message: "camera lost: \(reason)"), into: &effects)
            camera = .absent
            closedUnasked(started: recordingOpened, at: time)
        case .cameraClosed:
            camera = .absent
            closedUnasked(started: recordingOpened, at: time)
        case .cameraControls, .controlSet, .controlFailed, .settingsApplied, .presetSaved, .presetFailed:
            break
        }
    }

    /// Appends a `type: take` report line.
    private func report(_ take: TakeReport, into effects: inout [RigEffect]) {
        effects.append(.report(.take(take)))
    }

    /// The take in progress ended without a stop (a full disk, a lost camera):
    /// counted if it had `started` recording, as a take the recorder closed has.
    private mutating func closedUnasked(started: Bool, at time: Instant) {
        guard isRecording else { return }
        prompter?.setRecording(false, at: time)
        isRecording = false
        if started { takes += 1 }
        recordingOpened = false
    }

    /// A camera streams: the books take its position and rate, and its zoom
    /// and torch are set from them where it can.
    private mutating func opened(_ facts: CameraFacts, at time: Instant, into effects: inout [RigEffect]) {
        camera = .streaming(facts)
        position = facts.position
        fps = facts.fps
        if facts.zooms {
            zoom = min(zoom, zoomLimit)
            effects.append(.camera(.zoom(zoom), at: time))
        }
        if torch {
            if facts.hasTorch {
                effects.append(.camera(.torch(true), at: time))
            } else {
                torch = false
            }
        }
    }
}

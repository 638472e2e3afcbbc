import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// The camera's one owner: a thread that streams its frames into the take
/// pipeline and carries out everything else asked of it, in order, from its
/// mailbox: opening, switching to another camera or rate, the zoom control,
/// the torch, the controls the rig sets, closing. Only this thread makes V4L2 calls on the camera. What
/// comes of each request reaches the pipeline in line with the frames, and
/// from there the rig, as `TakeRecorder.Event`s.
final class CameraSession: Sendable {
    enum Letter: Sendable {
        case open(CameraOpening)
        /// Switch camera or rate; a take in progress splits at `splitAt`.
        case switchTo(CameraOpening, splitAt: Instant?)
        /// Set the camera's zoom control.
        case zoom(Int64)
        case torch(Bool)
        /// Set a V4L2 control for the rig, which hears what the driver kept.
        case setControl(CameraControl.ID, Int64)
        /// Set the profile's camera settings again where they drifted.
        case applySettings
        /// Save or load a preset in the presets folder given.
        case preset(PresetCommand, folder: String)
        case close
        case shutdown
    }

    private let mailbox: Mailbox<[Letter]>
    private let thread: WorkerThread

    /// Starts the session's thread, streaming `source` (when given) into
    /// `pipeline`; the thread takes part in `clock`'s time.
    init(
        pipeline: Mailbox<TakeRecorder.Inbox>, source: sending FrameSource?, opener: sending CameraOpener?, logger: Logger,
        clock: any RigClock
    ) throws(OperationError) {
        let mailbox = try Mailbox<[Letter]>()
        self.mailbox = mailbox
        let owner = CameraOwner(mailbox: mailbox, pipeline: pipeline, opener: opener, logger: logger, clock: clock)
        thread = try WorkerThread(name: "slate-camera", niceness: CameraOwner.niceness, clock: clock) {
            owner.run(streaming: source)
        }
    }

    deinit { shutdown() }

    func open(_ opening: CameraOpening) { mailbox.post(Letter.open(opening)) }

    func switchTo(_ opening: CameraOpening, splitAt: Instant?) { mailbox.post(Letter.switchTo(opening, splitAt: splitAt)) }

    func torch(_ on: Bool) { mailbox.post(Letter.torch(on)) }

    func setControl(_ id: CameraControl.ID, _ value: Int64) { mailbox.post(Letter.setControl(id, value)) }

    func applySettings() { mailbox.post(Letter.applySettings) }

    func preset(_ command: PresetCommand, in folder: String) { mailbox.post(Letter.preset(command, folder: folder)) }

    func close() { mailbox.post(Letter.close) }

    /// Stops streaming, releases the camera and ends the thread.
    func shutdown() {
        mailbox.post(Letter.shutdown)
        thread.join()
    }
}

/// What the camera session's thread holds: the source streaming, its camera,
/// and how it was opened.
private final class CameraOwner {
    /// The camera thread's nice value, where it may have it: ahead of the
    /// encoder's threads when the machine is busy, so buffers go back at once.
    static let niceness: Int32 = -10

    private let mailbox: Mailbox<[CameraSession.Letter]>
    private let pipeline: Mailbox<TakeRecorder.Inbox>
    private let opener: CameraOpener?
    private let log: Logger
    private let clock: any RigClock
    private var source: FrameSource?
    private var opened: OpenedCamera?
    private var opening: CameraOpening?
    /// The camera's controls as last told to the rig, by id.
    private var known: [CameraControl.ID: CameraControl] = [:]

    init(
        mailbox: Mailbox<[CameraSession.Letter]>, pipeline: Mailbox<TakeRecorder.Inbox>, opener: CameraOpener?,
        logger: Logger, clock: any RigClock
    ) {
        self.clock = clock
        self.mailbox = mailbox
        self.pipeline = pipeline
        self.opener = opener
        log = logger
    }

    func run(streaming initial: FrameSource?) {
        initial?.adopt()
        source = initial
        while true {
            for letter in mailbox.letters() {
                guard carryOut(letter) else {
                    release()
                    return
                }
            }
            guard let source else {
                clock.wait(for: mailbox)
                continue
            }
            do {
                switch try source.next(orMail: mailbox.bell) {
                case .frame(let capture): pipeline.post { $0.backlog.push(.frame(capture), at: capture.time) }
                case .mail: continue
                case .controls(let changes): tellChanges(changes)
                case .ended: stop(saying: nil)
                }
            } catch {
                stop(saying: "\(error)")
            }
        }
    }

    /// Carries out one request; false once the session is to end.
    private func carryOut(_ letter: CameraSession.Letter) -> Bool {
        switch letter {
        case .open(let opening): open(opening)
        case .switchTo(let opening, let splitAt):
            switchTo(opening, splitAt: splitAt)
            pipeline.post { $0.backlog.push(.switched, at: clock.now(), pinned: true) }
        case .zoom(let value): setZoom(value)
        case .torch(let on): setTorch(on)
        case .setControl(let id, let value): setControl(id, value)
        case .applySettings: applySettings(onlyDrifted: true)
        case .preset(let command, let folder): preset(command, in: folder)
        case .close: stop(saying: nil)
        case .shutdown: return false
        }
        return true
    }

    private func open(_ wanted: CameraOpening) {
        guard source == nil, let opener else { return }
        do {
            let camera = try opener.open(wanted)
            use(camera, as: wanted, saying: .cameraOpened(camera.facts), startAt: nil)
        } catch {
            say(.cameraOpenFailed("\(error)"))
        }
    }

    /// Opens the camera `wanted` says instead of the one streaming. When it
    /// cannot be opened the old one streams on, and the rig hears why; when
    /// neither can, the camera is lost.
    private func switchTo(_ wanted: CameraOpening, splitAt: Instant?) {
        guard let opener, let current = opening, let kept = opened?.facts else { return }
        let present = CameraDirectory.present()
        if wanted.position != current.position, !opener.isPresent(wanted, among: present) {
            say(.cameraSwitchFailed("no \(wanted.position.rawValue) camera is present", keeping: kept, unsplit: splitAt != nil))
            return
        }
        release()
        do {
            let camera = try opener.open(wanted, present: present)
            use(camera, as: wanted, saying: .cameraOpened(camera.facts), startAt: splitAt)
        } catch {
            log.warning("\(error); keeping the \(kept.position.rawValue) camera at \(kept.fps) fps")
            do {
                let again = try opener.open(current, present: present)
                use(
                    again, as: current, saying: .cameraSwitchFailed("\(error)", keeping: again.facts, unsplit: false),
                    startAt: splitAt)
            } catch {
                pipeline.post { $0.backlog.push(.end(lost: "\(error)"), at: clock.now(), pinned: true) }
            }
        }
    }

    /// Streams `camera` from now; the pipeline reports `said` once the take
    /// before it closed.
    private func use(_ camera: OpenedCamera, as wanted: CameraOpening, saying said: TakeRecorder.Event, startAt: Instant?) {
        var stream = camera.stream
        if let control = camera.zoomControl {
            // The camera's zoom range mapped onto 1x to its reach, set by this thread.
            let mailbox = self.mailbox
            let (minimum, maximum, reach) = (control.minimum, control.maximum, stream.zoomLimit)
            stream.cameraZoom = { factor in
                let part = reach > 1 ? (factor - 1) / (reach - 1) : 0
                mailbox.post(CameraSession.Letter.zoom(minimum + Int64((part * Double(maximum - minimum)).rounded())))
            }
        }
        opened = camera
        opening = wanted
        source = camera.source
        pipeline.post { $0.backlog.push(.stream(stream, said: said, startAt: startAt), at: clock.now(), pinned: true) }
        applySettings(onlyDrifted: false)
        tellControls(of: camera.camera, subscribing: true)
    }

    /// Sets the profile's `camera.settings`, automatic modes first, and tells
    /// the rig what the driver kept. `onlyDrifted` (a take starting) sets
    /// and tells only those another program or the camera changed since.
    private func applySettings(onlyDrifted: Bool) {
        guard let opened, let settings = opening?.spec.settings, !settings.isEmpty else { return }
        guard let camera = opened.camera else {
            if !onlyDrifted {
                say(
                    .settingsApplied(
                        settings.map {
                            SettingOutcome(
                                key: $0.key, asked: $0.value.description, problem: "\(opened.facts.name) has no controls")
                        },
                        source: .settings))
            }
            return
        }
        do {
            // A take's start plans on the controls already known, without listing them all again.
            let controls = onlyDrifted ? Array(known.values) : try camera.controls()
            let (sets, problems) = CameraSetting.plan(settings, on: controls)
            let outcomes = (onlyDrifted ? [] : problems) + (try set(sets, on: camera, skippingUnchanged: onlyDrifted))
            guard !outcomes.isEmpty else { return }
            say(.settingsApplied(outcomes, source: .settings))
            // Opening tells every control next; a take's start tells what the settings moved.
            if onlyDrifted { tellControls(of: camera) }
        } catch {
            log.warning("camera settings: \(error)")
        }
    }

    /// Sets each control in order, and says what the driver kept of each;
    /// `skippingUnchanged` leaves those that have the value already.
    private func set(
        _ sets: [(control: CameraControl, value: Int64)], on camera: V4L2Camera, skippingUnchanged: Bool
    ) throws(CameraError) -> [SettingOutcome] {
        var outcomes: [SettingOutcome] = []
        for (control, value) in sets {
            if skippingUnchanged, try camera.control(control.id)?.value == value { continue }
            let asked = control.menuName(of: value) ?? String(value)
            do {
                let kept = try camera.set(control.id, value)
                let text = control.menuName(of: kept) ?? String(kept)
                outcomes.append(SettingOutcome(key: control.key, asked: asked, kept: kept, keptText: text))
            } catch {
                outcomes.append(SettingOutcome(key: control.key, asked: asked, problem: "\(error)"))
            }
        }
        return outcomes
    }

    /// Saves the camera's controls in a slot of its presets file, or sets a
    /// slot's values on the camera (as camera settings are set).
    private func preset(_ command: PresetCommand, in folder: String) {
        let slot: Int
        switch command {
        case .save(let number), .load(let number): slot = number
        }
        guard let camera = opened?.camera else {
            say(.presetFailed(slot: slot, "\(opened?.facts.name ?? "the camera") has no controls"))
            return
        }
        let presets = PresetStore(folder: folder, camera: CameraDirectory.stableName(of: camera.path, card: camera.card))
        do {
            switch command {
            case .save:
                let values = PresetValue.of(try camera.controls())
                try presets.save(values, in: slot)
                say(.presetSaved(slot: slot, controls: values.count))
            case .load:
                guard let values = try presets.load(slot) else {
                    say(.presetFailed(slot: slot, "slot \(slot) of \(presets.path) is empty"))
                    return
                }
                let settings = values.map { CameraSetting(key: $0.key, value: .number($0.value)) }
                let (sets, problems) = CameraSetting.plan(settings, on: try camera.controls())
                say(.settingsApplied(problems + (try set(sets, on: camera, skippingUnchanged: false)), source: .preset))
                tellControls(of: camera)
            }
        } catch {
            say(.presetFailed(slot: slot, "\(error)"))
        }
    }

    /// Tells the rig every control of the camera (none for the test pattern);
    /// `subscribing` (as it opens) asks the driver for the changes made from
    /// outside from then on.
    private func tellControls(of camera: V4L2Camera?, subscribing: Bool = false) {
        do {
            let controls = try (subscribing ? camera?.subscribeControlEvents() : camera?.controls()) ?? []
            known = Dictionary(controls.map { ($0.id, $0) }) { _, last in last }
            say(.controls(controls, source: .camera))
        } catch {
            log.warning("controls: \(error)")
            say(.controls([], source: .camera))
        }
    }

    /// Tells the rig the controls another program or the camera changed, as they are now.
    private func tellChanges(_ changes: [CameraControlChange]) {
        var changed: [CameraControl] = []
        for change in changes {
            guard let control = known[change.id].map(change.applied) else { continue }
            known[change.id] = control
            changed.append(control)
        }
        if !changed.isEmpty { say(.controls(changed, source: .external)) }
    }

    /// Sets a control and tells the rig what the driver kept; a control that
    /// moves others (an automatic mode) has the camera's controls read again.
    private func setControl(_ id: CameraControl.ID, _ value: Int64) {
        guard let opened else {
            say(.controlFailed(id, "no camera streams"))
            return
        }
        guard let camera = opened.camera else {
            say(.controlFailed(id, "\(opened.facts.name) has no controls"))
            return
        }
        do {
            let kept = try camera.set(id, value)
            say(.controlSet(id, asked: value, kept: kept, returned: clock.now()))
            known[id]?.value = kept
            if try camera.control(id)?.updatesOthers == true { tellControls(of: camera) }
        } catch {
            say(.controlFailed(id, "\(error)"))
        }
    }

    /// Stops streaming: the pipeline closes a take in progress and reports
    /// the camera lost (with `reason`) or closed.
    private func stop(saying reason: String?) {
        guard source != nil else { return }
        release()
        pipeline.post { $0.backlog.push(.end(lost: reason), at: clock.now(), pinned: true) }
    }

    /// Closes the source and the device.
    private func release() {
        source?.close()
        source = nil
        opened = nil
        known = [:]
    }

    private func setZoom(_ value: Int64) {
        guard let camera = opened?.camera else { return }
        do {
            _ = try camera.set(.zoomAbsolute, value)
        } catch {
            log.warning("zoom: \(error)")
        }
    }

    /// Sets the camera's flash LED to torch mode (2) or off (0).
    private func setTorch(_ on: Bool) {
        guard let opened else { return }
        if let camera = opened.camera, CameraOpener.hasTorch(camera), (try? camera.set(.flashLEDMode, on ? 2 : 0)) != nil {
            return
        }
        say(.failed("\(opened.facts.name): the torch could not be turned \(on ? "on" : "off")"))
    }

    /// Tells the pipeline something to report in line with the frames.
    private func say(_ event: TakeRecorder.Event) {
        pipeline.post { $0.backlog.push(.event(event), at: clock.now(), pinned: true) }
    }
}

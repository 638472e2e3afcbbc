import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem
import SlateWeb
import SystemPackage

/// `slate run`'s event loop: the rig's inputs (live devices, or a recording
/// played in real time) drive the rig machine; its effects are carried out
/// (reports printed, sounds, programs, the live recorder's commands) and the
/// recorder's facts go back to it. Capture is active while the camera
/// streams; a lost camera is waited for and recording resumes when it is back.
public final class RunDaemon {
    /// How often a missing camera is looked for.
    static let cameraRetry = Duration.seconds(1)

    private let profilePath: String
    private var profile: Profile
    private let json: Bool
    /// Reports carry when they were handled (`dispatched`).
    private let timing: Bool
    private let log: Logger
    private let loop: EventLoop
    private let wake: Wakeup
    /// The feedback sounds that could not play, reported from the loop.
    private let soundFailures: SoundFailures
    private let recorder: LiveRecorder
    private var rig: RigDriver
    private var inputs: LiveInputs?
    private var replay: Replay?
    private var effects: EffectCarrier
    private var cameraRetryAt: Instant?
    /// The camera was lost or could not be opened, and does not stream yet (the tally shows an error).
    private var cameraLost = false
    /// Whether the camera was asked for and has not answered yet.
    private var awaitingCamera = false
    private var failed = false
    /// The recording to play, with its path.
    private var recording: (path: String, timeline: Timeline)?
    /// The rig's page, when it is served.
    private var page: PagePublisher?
    /// Writes the report lines, so a slow reader of them holds up nothing.
    private let lineWriter: LineWriter
    /// The rig's place on the broker, when the profile joins one.
    private var network: RigNetwork?
    /// The OBS instances `obs` actions go to, when the profile names them.
    private var obs: OBSBridge?
    /// The status the page shows and the broker keeps, when either is there.
    private var gatherer: RigStatusGatherer?
    /// The tally lights, following the rig's state.
    private var tally: LiveTally
    /// The rig's time: CLOCK_MONOTONIC, or a test's virtual clock.
    private let clock: any RigClock
    /// systemd, when the rig runs as its unit.
    private let service: ServiceReporter?

    /// The signals `slate run` reads: claim them (`EventLoop.claimSignals`)
    /// before anything starts a thread.
    public static let signals = [Signal.interrupt, Signal.terminate, Signal.hangUp, Signal.child]

    public init(
        profilePath: String, profile: Profile, recording: (path: String, parsed: InputRecording)?,
        settings: LiveRecorder.Settings, page pageSettings: PageSettings? = nil, json: Bool, timing: Bool, log: Logger,
        clock: any RigClock = SystemClock(), output: FileDescriptor = .standardOutput,
        service: ServiceManager? = ServiceManager.current()
    ) throws {
        self.clock = clock
        self.service = service.map { ServiceReporter(manager: $0, log: log) }
        self.profilePath = profilePath
        self.profile = profile
        self.json = json
        self.timing = timing
        self.log = log
        loop = try EventLoop()
        let wake = try Wakeup()
        self.wake = wake
        soundFailures = SoundFailures(wake: wake)
        recorder = try LiveRecorder(settings: settings, logger: log, clock: clock) { wake.signal() }
        recorder.awaitButtons(delayedBy: profile.longestDebounce)
        let start = clock.now()
        lineWriter = try LineWriter(fd: output)
        effects = EffectCarrier(
            printer: ReportPrinter(
                format: ReportFormat(origin: start), json: json, timing: timing, output: OutputStream(writer: lineWriter)),
            sounds: Self.player(for: profile, path: profilePath, recorder: recorder, failures: soundFailures, log: log),
            recorder: recorder,
            log: log, clock: clock)
        let prompter = try profile.prompter.map { try PrompterFile($0, profilePath: profilePath) }
        if let pageSettings {
            let page = try PagePublisher(
                listen: pageSettings.listen, hosts: pageSettings.hosts, token: pageSettings.token,
                pairing: pageSettings.pairing, work: settings.work, preview: recorder.preview, gauges: recorder.gauges,
                origin: start, wake: wake, logger: log)
            page.board.publish(prompter: prompter?.source)
            self.page = page
            log.notice("the rig's page: \(page.server.links.joined(separator: ", "))")
            if !page.server.isLoopback {
                log.notice(
                    "the page is bound to \(page.server.bound), not a loopback address: every request needs a paired browser or the token of \(pageSettings.tokenPath)"
                )
            }
            if let pairing = pageSettings.pairing {
                PairingNotice(store: pairing, links: page.server.links).announce(loopback: page.server.isLoopback, log: log)
            }
        }
        if let mqtt = profile.mqtt {
            let password = try mqtt.passwordFile.map { try SecretFile.load(UserPath.expand($0)) }
            network = try RigNetwork(
                spec: mqtt, profile: profile, password: password, work: "\(HostName.current):\(settings.work.path)", wake: wake,
                logger: log)
            effects.network = network
        }
        if let spec = profile.obs {
            let password = try spec.passwordFile.map { try SecretFile.load(UserPath.expand($0)) }
            obs = OBSBridge(spec: spec, password: password, wake: wake, logger: log)
            effects.obs = obs
        }
        if page != nil || network != nil {
            gatherer = RigStatusGatherer(work: settings.work, gauges: recorder.gauges)
        }
        let book = RigBook(
            camera: profile.camera, takes: recorder.availableTakes, camera: .absent, prompter: prompter?.prompter)
        var machine = RigMachine(profile: profile, book: book, captureActive: false)
        machine.reportsAppliedControls = timing
        rig = RigDriver(machine)
        tally = try LiveTally(spec: profile.tally ?? TallySpec(), at: start, logger: log)
        effects.lines = { [unowned self] report, line in lineWentOut(report, line) }
        if let recording {
            // Checked now, played from when the camera is ready.
            let timeline = Timeline(recording: recording.parsed)
            _ = try Replay(profile: profile, timeline: timeline)
            self.recording = (recording.path, timeline)
        } else {
            inputs = try LiveInputs(rig: rig, loop: loop, logger: log)
        }
        tally.setLED = { [unowned self] input, code, on in inputs?.setLED(input: input, code: code, on: on) }
    }

    /// Runs until SIGINT or SIGTERM (or the recording's end); false when the
    /// camera could not be opened at start. Without `handlingSignals` (a
    /// daemon in a test's process) only the recording's end ends it.
    public func run(handlingSignals: Bool = true) -> Bool {
        clock.enter()
        var timed = true
        defer { if timed { clock.leave() } }
        // The page's clients see their streams end, and the other rigs see this one go, however run ends.
        defer {
            tally.stop()
            page?.stop()
            network?.stop()
            obs?.stop()
            effects.printer.output.flush()
            lineWriter.close()
        }
        do {
            try loop.watch(wake.fd) { [wake] in wake.clear() }
            if handlingSignals {
                try loop.handleSignals(Self.signals) { [unowned self] signal in
                    switch signal {
                    case Signal.child: ProcessLauncher.reapChildren()
                    case Signal.hangUp: reload()
                    default: loop.stop()
                    }
                }
            }
        } catch {
            OutputStream.writeError("slate run: \(error)")
            return false
        }
        if !profile.camera.startOnInput || recording != nil {
            guard openCamera(atStart: true) else { return false }
        }
        if let recording { startReplay(recording.timeline, path: recording.path) }
        do {
            try inputs?.start()
        } catch {
            OutputStream.writeError("slate run: \(error)")
            return false
        }
        tally.start()
        reportToService(at: clock.now())
        do {
            try loop.run(
                clock: clock,
                nextDeadline: { [unowned self] in
                    [
                        rig.machine.nextDeadline, inputs?.nextDeadline, replay?.nextDeadline, cameraRetryAt, page?.nextDeadline,
                        network?.nextDeadline, service?.nextDeadline, tally.nextDeadline,
                    ]
                    .compactMap { $0 }.min()
                },
                afterWake: { [unowned self] in tick() })
        } catch {
            OutputStream.writeError("slate run: \(error)")
            failed = true
        }
        service?.stop()
        // Slate is stopping: no light goes on saying what it no longer does.
        tally.stop()
        // What is left (closing the take, the exports) is waited for, not timed.
        clock.leave()
        timed = false
        recorder.close()
        enterFacts()
        if recorder.isExporting {
            log.info("waiting for the export under way to finish")
            effects.printer.output.flush()
            while recorder.isExporting {
                recorder.waitForExports(milliseconds: 100)
                enterFacts()
                effects.printer.output.flush()
            }
            enterFacts()
        }
        inputs?.stop()
        effects.sounds?.stop()
        effects.printer.output.flush()
        return !failed
    }

    private func tick() {
        let now = clock.now()
        inputs?.retryDue(now: now)
        if let replay {
            while let next = replay.nextDeadline, next <= now { replay.advance(to: next) }
            if replay.nextDeadline == nil { loop.stop() }
        } else {
            rig.handle(.time(now))
        }
        // The lights first: what the books now say is shown before their effects are carried out.
        updateTally(at: now)
        effects.carryOut(rig.takeEffects())
        if let lost = enterFacts() {
            log.warning("the camera is gone (\(lost)); waiting for it")
            setCaptureActive(false, at: now)
            cameraRetryAt = now + Self.cameraRetry
            cameraLost = true
        }
        if awaitingCamera, recorder.isStreaming || recorder.openFailure != nil {
            _ = cameraAnswered(atStart: false)
        }
        if let due = cameraRetryAt, due <= now {
            cameraRetryAt = nil
            _ = openCamera(atStart: false)
        } else if cameraRetryAt == nil, !recorder.isOpenOrOpening, profile.camera.startOnInput, rig.machine.hasDevices {
            _ = openCamera(atStart: false)
        }
        effects.carryOut(rig.takeEffects())
        effects.carryOut(soundFailures.take(at: now))
        page?.runRequests(rig: rig, profile: profile, effects: effects, at: now) { [unowned self] in readScript(at: now) }
        network?.poll(rig: rig, profile: profile, effects: effects, at: now)
        obs?.poll(effects: effects, at: now)
        effects.printer.output.flush()
        updateTally(at: now)
        publishStatus(at: now)
        reportToService(at: now)
    }

    /// The tally follows the books (a take started or stopped), the exports and the camera.
    private func updateTally(at now: Instant) {
        let signals = TallySignals(
            recording: rig.machine.book.isRecording, exporting: recorder.isExporting, cameraLost: cameraLost)
        tally.update(signals, at: now)
    }

    /// How the rig stands, to systemd: its camera, and whether it waits for its inputs.
    private func reportToService(at now: Instant) {
        guard let service else { return }
        let camera: ServiceNotes.Camera
        if recorder.isStreaming {
            camera = .streaming(recorder.cameraName ?? "the camera")
        } else if let failure = recorder.openFailure, !awaitingCamera {
            camera = .waiting("\(failure)")
        } else if cameraRetryAt != nil {
            camera = .waiting("it is gone")
        } else if !recorder.isOpenOrOpening && profile.camera.startOnInput {
            camera = .streaming("the camera (opened on the first press)")
        } else {
            camera = .opening
        }
        service.rig(camera: camera, inputs: inputs == nil || rig.machine.hasDevices ? nil : "the input devices", at: now)
    }

    /// The rig's status, to the page and the broker.
    private func publishStatus(at now: Instant) {
        guard let gatherer else { return }
        let takes = recorder.takeList
        let (made, reading) = gatherer.status(
            machine: rig.machine, takes: takes, exportingTakes: recorder.exportingTakes, trash: recorder.trash,
            sound: recorder.soundSource,
            exporting: recorder.isExporting, previewers: page?.previewers ?? 0, origin: effects.printer.format.origin, at: now)
        var status = made
        status.tally = tally.state
        status.rigs = network?.tiles
        page?.publish(status, reading: reading, takes: takes, at: now)
        network?.publish(status)
    }

    /// A report line went out: the status follows it, and the page's clients
    /// and the other rigs get it.
    private func lineWentOut(_ report: Report, _ line: ReportLine) {
        if case .take(let take) = line.fields, take.event == "failed" { tally.failed(at: clock.now()) }
        gatherer?.follow(line)
        page?.publish(line)
        network?.publish(report, line, text: effects.printer.format.body(report), at: clock.now())
    }

    /// Hands the recorder's facts to the rig and carries out what they call
    /// for (reports, and the zoom and torch of a camera just opened). Returns
    /// why the camera was lost, if it was.
    @discardableResult
    private func enterFacts() -> String? {
        var lost: String?
        for (fact, time) in recorder.collect() {
            if case .cameraLost(let reason) = fact { lost = reason }
            rig.handle(.fact(fact, at: time))
        }
        effects.carryOut(rig.takeEffects())
        return lost
    }

    /// Asks for the camera; at start waits for it. Returns false when it is
    /// missing at start and the profile does not wait for it.
    private func openCamera(atStart: Bool) -> Bool {
        recorder.open(position: rig.machine.book.position, fps: rig.machine.book.fps)
        awaitingCamera = true
        guard atStart else { return true }
        recorder.waitForCamera()
        return cameraAnswered(atStart: true)
    }

    /// The camera asked for streams (capture becomes active) or could not be
    /// opened: an error at start unless the profile waits for it; later it is
    /// retried. False when `slate run` must end.
    private func cameraAnswered(atStart: Bool) -> Bool {
        awaitingCamera = false
        let now = clock.now()
        guard recorder.isStreaming else {
            let error = recorder.openFailure.map { "\($0)" } ?? "the camera did not open"
            // Under systemd a missing camera is waited for: a restart would find it missing again.
            if atStart && (recording != nil || !(profile.camera.waitForCamera || service != nil)) {
                OutputStream.writeError(
                    "slate run: \(error); --camera testpattern runs the rig on the test pattern, "
                        + "and camera.wait-for-camera: true waits for the camera")
                failed = true
                return false
            }
            if atStart { log.warning("\(error); waiting for it") }
            cameraRetryAt = now + Self.cameraRetry
            cameraLost = true
            return true
        }
        cameraLost = false
        if !atStart { log.info("recording from \(recorder.cameraName ?? "the camera") again") }
        enterFacts()
        setCaptureActive(true, at: now)
        return true
    }

    private func setCaptureActive(_ active: Bool, at time: Instant) {
        if let inputs {
            inputs.setCaptureActive(active, at: time)
        } else {
            rig.handle(.captureActive(active, at: time))
        }
    }

    /// Plays the recording from now: its events are moved onto the monotonic clock.
    private func startReplay(_ timeline: Timeline, path: String) {
        let now = clock.now()
        let moved = timeline.moved(toStart: now)
        do {
            let replay = try Replay(
                profile: profile, timeline: moved, book: rig.machine.book, captureActive: true)
            self.replay = replay
            rig = replay.driver
        } catch {
            OutputStream.writeError("\(path): error: \(error)")
            failed = true
            loop.stop()
        }
        effects.printer = ReportPrinter(
            format: ReportFormat(origin: moved.start ?? now), json: json, timing: timing, output: effects.printer.output)
        page?.board.setOrigin(moved.start ?? now)
    }

    /// SIGHUP: the profile again. Every capture event in progress ends as
    /// cancelled (a hold's release handler runs, so a take it started stops), then
    /// inputs are rebound with the new profile; camera settings apply when the
    /// camera is next opened; a take in progress started by a click goes on; the
    /// prompter's script is read again.
    private func reload() {
        switch ProfileSource.read(profilePath) {
        case .failure(let failure):
            OutputStream.writeDiagnostics(failure.diagnostics)
            log.warning("\(profilePath) is not valid; keeping the profile loaded before")
        case .success(let read):
            let loaded = read.profile
            guard replay == nil, let old = inputs else {
                log.warning("a replayed recording keeps its profile; only the prompter's script is read again")
                _ = readScript(at: clock.now())
                return
            }
            let now = clock.now()
            old.stop()
            rig.handle(.captureActive(false, at: now))
            effects.carryOut(rig.takeEffects())
            var machine = RigMachine(profile: loaded, book: rig.machine.book, captureActive: recorder.isStreaming)
            machine.reportsAppliedControls = timing
            rig.replace(with: machine)
            do {
                let inputs = try LiveInputs(rig: rig, loop: loop, logger: log)
                try inputs.start()
                if recorder.isStreaming { inputs.setCaptureActive(true, at: now) }
                self.inputs = inputs
                tally.reassertLEDs()
            } catch {
                OutputStream.writeError("slate run: \(error)")
                loop.stop()
                return
            }
            if loaded.mqtt != profile.mqtt || loaded.obs != profile.obs {
                log.warning(
                    "the mqtt or obs section changed: brokers and OBS are joined at start, so this takes effect when slate run starts again"
                )
            }
            if loaded.audio != profile.audio {
                log.warning(
                    "the audio section changed: the sound device is opened at start, so this takes effect when slate run starts again"
                )
            }
            if loaded.tally != profile.tally { replaceTally(with: loaded.tally, at: now) }
            profile = loaded
            use(script: read.script, at: now)
            recorder.settings.camera = loaded.camera
            recorder.awaitButtons(delayedBy: loaded.longestDebounce)
            effects.sounds?.stop()
            effects.sounds = Self.player(for: loaded, path: profilePath, recorder: recorder, failures: soundFailures, log: log)
            log.info("reloaded \(profilePath)")
        }
    }

    /// Reads the prompter's script again (it was saved from the page, or a
    /// replayed recording's profile reloaded). A script that cannot be read
    /// keeps the old one.
    private func readScript(at now: Instant) -> StatusBoard.Answer {
        guard let spec = profile.prompter else {
            use(script: nil, at: now)
            return .refused("the profile has no prompter")
        }
        do {
            use(script: try PrompterFile(spec, profilePath: profilePath), at: now)
            return .ran([])
        } catch {
            log.warning("the prompter's script was not read again, the one before is kept: \(error)")
            return .refused("\(error)")
        }
    }

    /// The prompter goes on with `file`'s script from where it stood, and pages
    /// are told its new version; no file, no prompter.
    private func use(script file: PrompterFile?, at now: Instant) {
        rig.replacePrompter(with: file?.prompter, at: now)
        page?.board.publish(prompter: file?.source)
        guard let file else { return }
        let script = file.source.script
        log.info("read the prompter's script \(file.source.path): \(script.lines.count) lines, \(script.cues.count) cues")
    }

    /// The profile's tally section changed: lights both sections have go on
    /// as they are, the others go dark, the new ones show the state at once.
    private func replaceTally(with spec: TallySpec?, at now: Instant) {
        do {
            tally = try LiveTally(spec: spec ?? TallySpec(), replacing: tally, logger: log)
            updateTally(at: now)
        } catch {
            log.warning("the tally section of the profile reloaded cannot be shown, the one before is kept: \(error)")
        }
    }

    /// The profile's sound player; a feedback sound played on the card the
    /// takes' sound comes from is silenced in the takes while it plays.
    private static func player(
        for profile: Profile, path: String, recorder: LiveRecorder, failures: SoundFailures, log: Logger
    ) -> SoundPlayer {
        let library = SoundLibrary(
            spec: profile.sounds, builtInFolder: InstalledSounds.folder(), profileFolder: SoundLibrary.folder(of: path))
        let sharesCard = recorder.soundDevice.map { ALSACard.sameCard($0, profile.sounds.device) } ?? false
        return SoundPlayer(
            library: library, device: profile.sounds.device, decode: SoundFile.read(path:), logger: log,
            onFailure: { failures.add(sound: $0, file: $1, reason: $2) }, onPlaying: sharesCard ? recorder.soundMuter : nil)
    }
}

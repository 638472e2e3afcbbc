import Glibc
import Logging
import SlateCore
import SlateLinux

/// `slate run`'s event loop: the rig's inputs (live devices, or a recording
/// played in real time), the live recorder, sounds and the printed reports.
/// Capture is active while the camera streams; a lost camera is waited for
/// and recording resumes when it is back.
final class RunDaemon {
    /// How often a missing camera is looked for.
    static let cameraRetry = Duration.seconds(1)

    private let profilePath: String
    private var profile: Profile
    private let json: Bool
    private let log: Logger
    private let loop: EventLoop
    private let wake: Wakeup
    private let recorder: LiveRecorder
    private var rig: Rig
    private var inputs: LiveInputs?
    private var replay: SlateCore.Replay?
    private var player: SoundPlayer
    private var printer: ReportPrinter
    private var cameraRetryAt: Instant?
    private var failed = false
    /// The recording to play, with its path.
    private var recording: (path: String, timeline: Timeline)?

    init(
        profilePath: String, profile: Profile, recording: (path: String, parsed: Recording)?, settings: LiveRecorder.Settings, json: Bool,
        log: Logger
    ) throws {
        self.profilePath = profilePath
        self.profile = profile
        self.json = json
        self.log = log
        loop = try EventLoop()
        let wake = try Wakeup()
        self.wake = wake
        recorder = try LiveRecorder(settings: settings, logger: log) { wake.signal() }
        player = Self.player(for: profile, path: profilePath, log: log)
        let start = MonotonicClock.now()
        printer = ReportPrinter(
            format: ReportFormat(origin: start), json: json, runsPrograms: true, sounds: player, log: log)
        rig = Rig(profile: profile, recorder: recorder, captureActive: false)
        if let recording {
            // Checked now, played from when the camera is ready.
            let timeline = Timeline(recording: recording.parsed)
            _ = try SlateCore.Replay(profile: profile, timeline: timeline, recorder: RecorderModel())
            self.recording = (recording.path, timeline)
        } else {
            inputs = try LiveInputs(rig: rig, loop: loop, logger: log)
        }
    }

    /// Runs until SIGINT or SIGTERM (or the recording's end); false when the
    /// camera could not be opened at start.
    func run() -> Bool {
        do {
            try loop.watch(wake.fd) { [wake] in wake.clear() }
            try loop.handleSignals([SIGINT, SIGTERM, SIGHUP, SIGCHLD]) { [unowned self] signal in
                switch signal {
                case SIGCHLD: ProcessLauncher.reapChildren()
                case SIGHUP: reload()
                default: loop.stop()
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
        do {
            try loop.run(
                nextDeadline: { [unowned self] in
                    [rig.nextTimer, inputs?.nextDeadline, replay?.nextTime, cameraRetryAt].compactMap { $0 }.min()
                },
                afterWake: { [unowned self] in tick() })
        } catch {
            OutputStream.writeError("slate run: \(error)")
            failed = true
        }
        recorder.close()
        printTakes(recorder.collect().reports)
        if recorder.isExporting {
            log.info("waiting for the export under way to finish")
            printer.output.flush()
            recorder.finishExports()
            printTakes(recorder.collect().reports)
        }
        inputs?.stop()
        player.stop()
        printer.output.flush()
        return !failed
    }

    private func tick() {
        let now = MonotonicClock.now()
        inputs?.retryDue(now: now)
        if let replay {
            while let next = replay.nextTime, next <= now { replay.advance(to: next) }
            if replay.nextTime == nil { loop.stop() }
        } else {
            rig.advance(to: now)
        }
        let (takes, lost) = recorder.collect()
        if let lost {
            log.warning("the camera is gone (\(lost)); waiting for it")
            setCaptureActive(false, at: now)
            cameraRetryAt = now + Self.cameraRetry
        }
        if let due = cameraRetryAt, due <= now {
            cameraRetryAt = nil
            _ = openCamera(atStart: false)
        } else if cameraRetryAt == nil, !recorder.isStreaming, profile.camera.startOnInput,
            rig.sources.contains(where: { $0 != nil })
        {
            _ = openCamera(atStart: false)
        }
        printer.print(rig.reports)
        rig.reports.removeAll(keepingCapacity: true)
        printTakes(takes)
        printer.output.flush()
    }

    /// Opens the camera and makes capture active. At start a missing camera is
    /// an error unless the profile waits for it; later it is retried.
    private func openCamera(atStart: Bool) -> Bool {
        do {
            try recorder.open()
        } catch {
            if atStart && (recording != nil || !profile.camera.waitForCamera) {
                OutputStream.writeError("slate run: \(error)")
                failed = true
                return false
            }
            if atStart { log.warning("\(error); waiting for it") }
            cameraRetryAt = MonotonicClock.now() + Self.cameraRetry
            return true
        }
        if !atStart { log.info("recording from \(recorder.cameraName ?? "the camera") again") }
        setCaptureActive(true, at: MonotonicClock.now())
        return true
    }

    private func setCaptureActive(_ active: Bool, at time: Instant) {
        if let inputs {
            inputs.setCaptureActive(active, at: time)
        } else {
            rig.setCaptureActive(active, at: time)
        }
    }

    /// Plays the recording from now: its events are moved onto the monotonic clock.
    private func startReplay(_ timeline: Timeline, path: String) {
        let now = MonotonicClock.now()
        let moved = timeline.moved(toStart: now)
        do {
            let replay = try SlateCore.Replay(profile: profile, timeline: moved, recorder: recorder, captureActive: true)
            self.replay = replay
            rig = replay.rig
        } catch {
            OutputStream.writeError("\(path): error: \(error)")
            failed = true
            loop.stop()
        }
        printer = ReportPrinter(
            format: ReportFormat(origin: moved.start ?? now), json: json, runsPrograms: true, sounds: player, log: log)
    }

    /// SIGHUP: the profile again. Every capture event in progress ends as
    /// cancelled (a hold's release handler runs, so a take it started stops), then
    /// inputs are rebound with the new profile; camera settings apply when the
    /// camera is next opened; a take in progress started by a click goes on.
    private func reload() {
        switch ProfileSource.load(profilePath) {
        case .failure(let failure):
            failure.lines.forEach(OutputStream.writeError)
            log.warning("\(profilePath) is not valid; keeping the profile loaded before")
        case .success(let loaded):
            guard replay == nil, let old = inputs else {
                log.warning("a replayed recording keeps its profile; reload ignored")
                return
            }
            let now = MonotonicClock.now()
            old.stop()
            self.rig.setCaptureActive(false, at: now)
            printer.print(self.rig.reports)
            self.rig.reports.removeAll()
            let rig = Rig(profile: loaded, recorder: recorder, captureActive: recorder.isStreaming)
            do {
                let inputs = try LiveInputs(rig: rig, loop: loop, logger: log)
                try inputs.start()
                if recorder.isStreaming { inputs.setCaptureActive(true, at: now) }
                self.inputs = inputs
            } catch {
                OutputStream.writeError("slate run: \(error)")
                loop.stop()
                return
            }
            self.rig = rig
            profile = loaded
            recorder.settings.camera = loaded.camera
            player.stop()
            player = Self.player(for: loaded, path: profilePath, log: log)
            printer.sounds = player
            log.info("reloaded \(profilePath)")
        }
    }

    private func printTakes(_ reports: [TakeReport]) {
        guard !reports.isEmpty else { return }
        printer.print(reports.map(Report.take))
    }

    private static func player(for profile: Profile, path: String, log: Logger) -> SoundPlayer {
        let library = SoundLibrary(
            spec: profile.sounds, builtInFolder: InstalledSounds.folder(), profileFolder: SoundLibrary.folder(of: path))
        return SoundPlayer(library: library, device: profile.sounds.device, logger: log)
    }
}

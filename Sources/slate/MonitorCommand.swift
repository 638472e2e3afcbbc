import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate monitor`: live capture events from the rig's devices.
struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Show live capture events, actions and sounds from the rig's input devices.",
        discussion: """
            Output is replay's format, with t in seconds since monitor start, from the events' \
            own timestamps. Capture is active while monitor runs (devices are grabbed as the \
            profile says) unless --inactive. exec actions run and sounds play on the profile's \
            ALSA device. While no device matches, it says which inputs it waits for. \
            Presses of bound buttons that do nothing are printed as ignored \
            lines, with the reason, unless --quiet-ignored. SIGINT or SIGTERM releases every \
            grab and exits 0.
            """)

    @Option(help: "The rig's profile (default: $XDG_CONFIG_HOME/slate/rig.yaml, else ~/.config/slate/rig.yaml).")
    var profile: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "Keep capture inactive: nothing is grabbed and buttons do nothing.")
    var inactive = false

    @Flag(help: "Do not print presses that did nothing (ignored lines).")
    var quietIgnored = false

    @Flag(help: "With --json, add when each line was handled (dispatched, seconds since start) to measure latency.")
    var timing = false

    @Option(
        help: ArgumentHelp(
            "The camera whose controls the rig's controls drive, as `slate controls --json` saved it (default: a typical webcam's).",
            valueName: "file"))
    var cameraControls: String?

    @OptionGroup var logging: LogOptions

    func run() throws {
        try Slate.claimSignals([Signal.interrupt, Signal.terminate, Signal.child])
        Slate.bootstrapLogging(logging.logLevel)
        let start = MonotonicClock.now()
        let log = Logger(label: "slate.monitor")
        let (profilePath, loaded) = try ProfileSource.loadOrExit(given: profile)
        let camera = try cameraControls.map(ReplayCommand.loadCatalogOrExit)?.controls ?? ModelledCamera.typicalWebcam
        let rig = RigDriver(
            RigMachine(profile: loaded, book: RigBook(camera: loaded.camera), captureActive: !inactive),
            camera: ModelledCamera(controls: camera))
        let loop: EventLoop
        let inputs: LiveInputs
        do {
            loop = try EventLoop()
            inputs = try LiveInputs(rig: rig, loop: loop, logger: log)
            try loop.handleSignals([Signal.interrupt, Signal.terminate, Signal.child]) { signal in
                if signal == Signal.child {
                    ProcessLauncher.reapChildren()
                } else {
                    loop.stop()
                }
            }
            try inputs.start()
        } catch {
            OutputStream.writeError("slate monitor: \(error)")
            throw ExitCode.failure
        }
        let library = SoundLibrary(
            spec: loaded.sounds, builtInFolder: InstalledSounds.folder(), profileFolder: SoundLibrary.folder(of: profilePath))
        let player = SoundPlayer(library: library, device: loaded.sounds.device, decode: SoundFile.read(path:), logger: log)
        defer { player.stop() }
        var waiting = !rig.machine.hasDevices
        if waiting { log.info("\(loaded.waitingMessage)") }
        let printer = ReportPrinter(
            format: ReportFormat(origin: start), json: json, timing: timing, showsIgnored: !quietIgnored)
        let effects = EffectCarrier(printer: printer, sounds: player, log: log)
        try loop.run(
            nextDeadline: {
                [rig.machine.nextDeadline, inputs.nextDeadline].compactMap { $0 }.min()
            },
            afterWake: {
                let now = MonotonicClock.now()
                inputs.retryDue(now: now)
                rig.handle(.time(now))
                effects.carryOut(rig.takeEffects())
                printer.output.flush()
                let unbound = !rig.machine.hasDevices
                if unbound && !waiting { log.info("\(loaded.waitingMessage)") }
                waiting = unbound
            })
        inputs.releaseAll()
        printer.output.flush()
    }
}

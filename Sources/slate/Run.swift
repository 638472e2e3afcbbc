import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem
import SlateWeb

/// `slate run`: the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the rig: buttons to capture events, takes recorded from the camera, sounds played.",
        discussion: """
            Output is replay's format (t in seconds since start) plus take lines: started \
            (at the take's first frame), stopped, deleted, exporting (an export under way, at \
            most once a second), exported, failed. Capture is active \
            while the camera streams. SIGINT or SIGTERM stops a take in progress and exits 0; \
            SIGHUP reloads the profile (an invalid one is reported and the old one kept).
            """)

    @Option(help: "The rig's profile (default: $XDG_CONFIG_HOME/slate/rig.yaml, else ~/.config/slate/rig.yaml).")
    var profile: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "With --json, add when each line was handled (dispatched, seconds since start) to measure latency.")
    var timing = false

    @Option(help: "Play an evemu or libinput recording in real time instead of reading the rig's devices.")
    var replay: String?

    @Option(help: "A V4L2 device such as /dev/video0, or testpattern, instead of the profile's cameras.")
    var camera: String?

    @Option(help: "An ALSA capture device such as hw:CARD=USB,DEV=0, testtone or none, instead of the profile's audio.device.")
    var audio: String?

    @Option(
        help: ArgumentHelp(
            "Serve the rig's page and HTTP API on [ADDR:]PORT (default address 127.0.0.1), instead of the profile's http.listen.",
            valueName: "[ADDR:]PORT"))
    var http: String?

    @Option(help: "The work folder for takes (default: the profile's camera.work, else ~/Videos/Slate/takes).")
    var work: String?

    @Option(help: "Where exports go (default: the profile's camera.output, else ~/Videos/Slate).")
    var output: String?

    @OptionGroup var logging: LogOptions

    func run() throws {
        try Slate.claimSignals(RunDaemon.signals)
        Slate.bootstrapLogging(logging.logLevel)
        let log = Logger(label: "slate.run")
        let (profilePath, loaded) = try ProfileSource.loadOrExit(given: profile)
        let recording = try replay.map { (path: $0, parsed: try ReplayCommand.loadOrExit($0)) }
        var work: TakeFolder
        let output: String
        let lock: TakeFolderLock
        do {
            work = try TakeFolder(
                path: Self.absolute(self.work ?? loaded.camera.work ?? UserPath.defaultWork), create: true,
                access: loaded.camera.takesAccess)
            work.trashHours = loaded.camera.trashHours
            output = Self.absolute(self.output ?? loaded.camera.output ?? UserPath.defaultOutput)
            try Folder(output, creating: 0o755).checkWritable()
            try work.directory.checkWritable()
            lock = try TakeFolderLock(work, holder: TakeFolderLock.holder("run"))
        } catch {
            OutputStream.writeError("slate run: \(error)")
            throw ExitCode.failure
        }
        var settings = LiveRecorder.Settings(
            camera: loaded.camera, cameraOverride: camera, audio: AudioSpec.device(audio, over: loaded.audio), work: work,
            output: output,
            measureEncoder: ProbeEncoder.inChildProcess)
        if let rig = loaded.mqtt?.rig { settings.rig = rig }
        let page = try pageSettings(loaded)
        let daemon: RunDaemon
        do {
            daemon = try RunDaemon(
                profilePath: profilePath, profile: loaded, recording: recording, settings: settings, page: page, json: json,
                timing: timing, log: log)
        } catch {
            OutputStream.writeError(error is ReplayError ? "\(replay ?? ""): error: \(error)" : "slate run: \(error)")
            throw error is ReplayError ? Slate.badInput : ExitCode.failure
        }
        let succeeded = daemon.run()
        withExtendedLifetime(lock) {}
        guard succeeded else { throw ExitCode.failure }
    }

    /// Where the page is served (`--http`, else the profile's `http.listen`),
    /// the profile's other names for it (`http.hosts`) and the API's token,
    /// made on first use in Slate's state folder.
    private func pageSettings(_ profile: Profile) throws -> PageSettings? {
        var listen = profile.http?.listen
        if let http {
            switch HTTPListen.parse(http) {
            case .success(let parsed): listen = parsed
            case .failure(let error):
                OutputStream.writeError("slate run: --http: \(error)")
                throw ExitCode.validationFailure
            }
        }
        guard let listen else { return nil }
        let path = UserPath.state + "/http-token"
        do {
            let token = try SecretFile.loadOrCreate(path) { SecretFile.randomHex(bytes: 32) }
            let pairing = try PairingStore(folder: UserPath.state)
            return PageSettings(
                listen: listen, hosts: profile.http?.hosts ?? [], token: token, tokenPath: path, pairing: pairing)
        } catch {
            OutputStream.writeError("slate run: the page's credentials: \(error)")
            throw ExitCode.failure
        }
    }

    /// `path` with `~` expanded, made absolute against the working folder.
    static func absolute(_ path: String) -> String {
        let expanded = UserPath.expand(path)
        guard !expanded.hasPrefix("/"), let here = ProcessInfoReading.workingFolder else { return expanded }
        return here + "/" + expanded
    }
}

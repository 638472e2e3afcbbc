import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate record`: one take now, from a camera or the test pattern.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record one take into the work folder, to try a camera and the encoder.",
        discussion: """
            The take is recorded as the daemon records takes: a fragmented MP4 with a \
            thumbnail, listed in the work folder's takes.json. Of several --codec choices, \
            the first whose encoder keeps up at this size (a short probe) is used. It \
            stops after --seconds, or on SIGINT or SIGTERM.
            """)

    @Option(help: "A V4L2 device such as /dev/video0, or testpattern.")
    var camera = "testpattern"

    @OptionGroup var video: VideoOptions

    @Flag(help: "Store a camera's MJPEG or H.264 frames as they come, without encoding (as camera.passthrough).")
    var passthrough = false

    @Option(help: "Record sound too: an ALSA capture device such as default or hw:CARD=USB,DEV=0, or testtone.")
    var audio = "none"

    @Option(help: "The sound's channels (1 or 2).")
    var audioChannels = 2

    @OptionGroup var folder: Takes.FolderOptions

    @Flag(help: "Print the take as one JSON object.")
    var json = false

    func run() throws {
        try Slate.claimSignals([Signal.interrupt, Signal.terminate])
        Slate.bootstrapLogging()
        let log = Logger(label: "slate.record")
        let folder = try self.folder.resolve("record", create: true)
        let source: FrameSource
        do {
            if camera == "testpattern" {
                source = TestPatternSource(width: video.dimensions.width, height: video.dimensions.height, fps: video.fps)
            } else {
                let camera = try V4L2FrameSource(path: camera, fps: video.fps, passThrough: passthrough)
                log.info("\(camera.camera.path) (\(camera.camera.card)): \(camera.choice)")
                source = camera
            }
        } catch {
            OutputStream.writeError("slate record: \(error)")
            throw ExitCode.failure
        }
        var codecs = video.codecs
        if !(passthrough && source.codec != nil),
            let (codec, lines) = EncoderChoice.probing(
                codecs: codecs, width: source.width, height: source.height, fps: source.fps,
                measure: { ProbeEncoder.inChildProcess(codec: $0, width: source.width, height: source.height, fps: source.fps) })
        {
            for line in lines { log.info("\(line)") }
            codecs = [codec]
        }
        let recorder: TakeRecorder
        let lock: TakeFolderLock
        var spec = AudioSpec()
        spec.device = AudioSpec.Device(audio)
        spec.format.channels = audioChannels
        let sound: SoundRecording?
        do {
            sound = try SoundRecording(spec)
        } catch {
            OutputStream.writeError("slate record: \(error)")
            throw ExitCode.failure
        }
        if let sound { log.info("sound: \(sound.description)") }
        do {
            lock = try TakeFolderLock(folder, holder: TakeFolderLock.holder("record"))
            let ledger = try TakeLedger(folder: folder)
            for note in folder.recover(ledger) { log.warning("\(note)") }
            recorder = try TakeRecorder(
                source: source, ledger: ledger, codecs: codecs, passThrough: passthrough, sound: sound, logger: log)
        } catch {
            OutputStream.writeError("slate record: \(error)")
            throw ExitCode.failure
        }
        let loop = try EventLoop()
        try loop.handleSignals([Signal.interrupt, Signal.terminate]) { _ in loop.stop() }
        let end = MonotonicClock.now() + .microseconds(Int64(video.seconds * 1_000_000))
        recorder.start(at: MonotonicClock.now())
        try loop.run(nextDeadline: { end }, afterWake: { if MonotonicClock.now() >= end { loop.stop() } })
        recorder.stop(at: MonotonicClock.now())
        recorder.shutdown()
        var taken: TakeManifest.Take?
        var takenSound: SoundSummary?
        for event in recorder.takeEvents() {
            switch event {
            case .closed(let take, _, let early, let sound):
                taken = take
                takenSound = sound
                if let early { OutputStream.writeError("slate record: \(early)") }
            case .failed(let message), .startFailed(let message): OutputStream.writeError("slate record: \(message)")
            case .sourceLost(let message): OutputStream.writeError("slate record: the camera was lost: \(message)")
            case .opened, .deleted, .deleteFailed, .cameraOpened, .cameraSwitchFailed, .cameraOpenFailed, .cameraClosed,
                .controls,
                .controlSet, .controlFailed, .settingsApplied, .presetSaved, .presetFailed:
                break
            }
        }
        withExtendedLifetime(lock) {}
        guard let take = taken else {
            OutputStream.writeError("slate record: no take was recorded")
            throw ExitCode.failure
        }
        let seconds = Instant.formatSeconds(take.duration.microseconds, decimals: 3)
        if json {
            print(
                JSONLine.encode(
                    RecordLine(
                        path: folder.file(take.file), thumbnail: take.thumbnail.map(folder.file), encoder: recorder.encoderName,
                        duration: take.duration.inSeconds(decimals: 3), frames: take.frames, dropped: take.dropped,
                        sound: takenSound)))
        } else {
            print(
                "recorded \(folder.file(take.file)) with \(recorder.encoderName): \(seconds) s, \(take.frames) frames, "
                    + "\(take.dropped) dropped" + (takenSound.map { ", " + $0.text } ?? ""))
        }
    }
}

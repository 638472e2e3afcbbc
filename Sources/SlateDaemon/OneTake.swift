import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate record`'s work: one take now, from a camera or the test pattern,
/// recorded as the daemon records takes (the frame source, the encoder that
/// keeps up, the take pipeline and its sound), until its seconds are over or
/// SIGINT or SIGTERM.
public struct OneTake {
    /// What to record.
    public struct Settings: Sendable {
        /// A V4L2 device such as /dev/video0, or `testpattern`.
        public var camera: String
        public var width: Int
        public var height: Int
        public var fps: FrameRate
        /// The codecs to choose from, best first.
        public var codecs: [String]
        /// A camera's compressed frames stored as they come.
        public var passThrough: Bool
        public var audio: AudioSpec
        public var seconds: Double
        /// The proxy written beside the take; nil: none.
        public var proxy: ProxySpec?

        public init(
            camera: String, width: Int, height: Int, fps: FrameRate, codecs: [String], passThrough: Bool, audio: AudioSpec,
            seconds: Double, proxy: ProxySpec? = nil
        ) {
            self.proxy = proxy
            self.camera = camera
            self.width = width
            self.height = height
            self.fps = fps
            self.codecs = codecs
            self.passThrough = passThrough
            self.audio = audio
            self.seconds = seconds
        }
    }

    /// The take recorded, with what was said about it.
    public struct Outcome: Sendable {
        public var take: TakeManifest.Take?
        public var sound: SoundSummary?
        public var encoder: String
        /// What went wrong on the way, each a line for standard error.
        public var problems: [String]
    }

    /// How often `record` calls its `progress`.
    public static let progressInterval = Duration.milliseconds(250)

    /// Records one take into `folder`; `probe` measures the encoders to choose
    /// from; `progress`, when given, is called every `progressInterval` while it records.
    public static func record(
        _ settings: Settings, into folder: TakeFolder, probe: @escaping EncoderChoice.Measure, logger log: Logger,
        progress: ((RecordProgress) -> Void)? = nil
    ) throws -> Outcome {
        let source = try openSource(settings, logger: log)
        var codecs = settings.codecs
        if !(settings.passThrough && source.codec != nil),
            let (encoder, lines) = EncoderChoice.probing(
                codecs: codecs, width: source.width, height: source.height, fps: Int(source.fps.nominal),
                missing: { EncoderDevices.missing(for: $0) }, measure: probe)
        {
            for line in lines { log.info("\(line)") }
            codecs = [encoder]
        }
        let sound = try SoundRecording(settings.audio)
        if let sound { log.info("sound: \(sound.description)") }
        let lock = try TakeFolderLock(folder, holder: TakeFolderLock.holder("record"))
        let ledger = try TakeLedger(folder: folder)
        for note in folder.recover(ledger) { log.warning("\(note)") }
        let recorder = try TakeRecorder(
            source: source, ledger: ledger, codecs: codecs, passThrough: settings.passThrough, proxy: settings.proxy,
            sound: sound, logger: log)
        let loop = try EventLoop()
        try loop.handleSignals([Signal.interrupt, Signal.terminate]) { _ in loop.stop() }
        let length = Duration.microseconds(Int64(settings.seconds * 1_000_000))
        let started = MonotonicClock.now()
        let end = started + length
        var nextReport = progress == nil ? end : started + progressInterval
        recorder.start(at: started)
        try loop.run(
            nextDeadline: { min(end, nextReport) },
            afterWake: {
                let now = MonotonicClock.now()
                if now >= end { return loop.stop() }
                guard let progress, now >= nextReport else { return }
                let reading = recorder.gauges.reading
                progress(RecordProgress(elapsed: now - started, length: length, take: reading.take, level: reading.level))
                nextReport = now + progressInterval
            })
        recorder.stop(at: MonotonicClock.now())
        recorder.shutdown()
        var outcome = Outcome(take: nil, sound: nil, encoder: recorder.encoderName, problems: [])
        for event in recorder.takeEvents() {
            switch event {
            case .closed(let take, _, let early, let sound):
                outcome.take = take
                outcome.sound = sound
                if let early { outcome.problems.append(early) }
            case .failed(let message), .startFailed(let message): outcome.problems.append(message)
            case .sourceLost(let message): outcome.problems.append("the camera was lost: \(message)")
            case .opened, .deleted, .restored, .deleteFailed, .cameraOpened, .cameraSwitchFailed, .cameraOpenFailed,
                .cameraClosed,
                .controls, .controlSet, .controlFailed, .settingsApplied, .presetSaved, .presetFailed:
                break
            }
        }
        withExtendedLifetime(lock) {}
        return outcome
    }

    /// The test pattern, or the camera at its largest mode allowing `fps`.
    private static func openSource(_ settings: Settings, logger log: Logger) throws -> FrameSource {
        if settings.camera == "testpattern" {
            return TestPatternSource(width: settings.width, height: settings.height, fps: settings.fps)
        }
        let camera = try V4L2FrameSource(path: settings.camera, fps: settings.fps, passThrough: settings.passThrough)
        log.info("\(camera.camera.path) (\(camera.camera.card)): \(camera.choice)")
        return camera
    }
}

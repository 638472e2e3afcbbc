import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// Records takes from a camera on threads of their own: a `CameraSession`
/// owns the camera and streams its frames into the take pipeline, whose thread
/// encodes them all the time, so a take starts with the first frame captured
/// at or after its button's timestamp (or earlier, with pre-roll).
/// Each take is a fragmented MP4 (MOV for passed-through MJPEG) in the work folder
/// with a thumbnail from 0.05 s, listed in the folder's manifest, which is saved when
/// a take opens and closes. A take whose file cannot be written (a full disk) ends
/// there, playable up to its last complete fragment, and is reported as failed; a
/// take whose file cannot be created leaves nothing behind. Exports are handed to
/// a `TakeExports` thread, so recording never waits for one.
public final class TakeRecorder: Sendable {
    /// What happened to a take or the camera, in the order it happened.
    /// `number` is the take's place among the takes not held by an export, from 1.
    public enum Event: Sendable {
        /// A take opened; its first frame was captured at `firstFrame` (CLOCK_MONOTONIC).
        case opened(TakeManifest.Take, number: Int, firstFrame: Instant)
        /// A take closed; `early` says why when it ended before its stop (a full
        /// disk); `sound` is its sound's, for a take with sound.
        case closed(TakeManifest.Take, number: Int, early: String?, sound: SoundSummary?)
        /// A take could not start; nothing of it was left behind.
        case startFailed(String)
        case deleted(TakeManifest.Take, number: Int)
        /// A take came back from the trash, as take `number`.
        case restored(TakeManifest.Take, number: Int)
        /// A take named for deletion is not there (deleted or exported meanwhile): nothing was deleted.
        case deleteFailed(String)
        case failed(String)
        /// The camera streams (at first, or after a switch).
        case cameraOpened(CameraFacts)
        /// A switch of camera or rate failed; `keeping` streams, a take it was to
        /// split goes on unsplit when `unsplit`.
        case cameraSwitchFailed(String, keeping: CameraFacts, unsplit: Bool)
        /// The camera could not be opened.
        case cameraOpenFailed(String)
        /// The source failed (a camera unplugged): a take in progress was closed.
        case sourceLost(String)
        /// The camera was closed as asked: a take in progress was closed.
        case cameraClosed
        /// The camera's controls, all of them or those that changed.
        case controls([CameraControl], source: ControlSource)
        /// The profile's camera settings, or a preset, were applied.
        case settingsApplied([SettingOutcome], source: ControlSource)
        case presetSaved(slot: Int, controls: Int)
        case presetFailed(slot: Int, String)
        /// A control was set: the value asked and the value the driver kept.
        case controlSet(CameraControl.ID, asked: Int64, kept: Int64, returned: Instant)
        case controlFailed(CameraControl.ID, String)
    }

    /// An export asked of the pipeline: how, and where its result goes.
    struct ExportOrder: Sendable {
        var options: TakeExporter.Options
        var outputFolder: String
    }

    /// What the rig asks of the pipeline.
    typealias Command = TakeFlow<ExportOrder>.Command

    /// A stream the camera session opened: what the pipeline needs to encode it.
    struct Stream: Sendable {
        var format: SourceFormat
        var codecs: [String]
        var passThrough: Bool
        var rotation: Int
        /// Mirrored in software (the camera has no horizontal flip control).
        var mirrored: Bool
        /// How far before its press a take starts.
        var preroll: Duration
        /// Sets the camera's own zoom for a factor, through its session; nil: zoom is digital.
        var cameraZoom: (@Sendable (Double) -> Void)?
        var zoomLimit: Double
        /// The proxy written beside each take; nil: none.
        var proxy: ProxySpec? = nil
    }

    /// What reaches the pipeline from the camera session, in capture order.
    enum Delivery: Sendable {
        case frame(CameraFrame)
        /// The camera streams `stream` from now; `said` is reported once the take
        /// before it closed, and a take split by a switch goes on from `startAt`.
        case stream(Stream, said: Event, startAt: Instant?)
        /// The camera stopped streaming; `lost` says why when it was not asked to.
        case end(lost: String?)
        /// Something the camera session says between two frames.
        case event(Event)
        /// A switch is over (whatever came of it): commands held meanwhile go on.
        case switched
    }

    /// The pipeline's mailbox.
    struct Inbox: Sendable {
        var backlog = FrameBacklog<Delivery>(capacity: TakeRecorder.backlogCapacity)
        /// How much later than usual a button's command can come (`awaitButtons`).
        var buttonDelay = Duration.zero
        /// What the sound capture delivered, in order (at most `soundCapacity`).
        var sound: [SoundCapture.Delivery] = []
        var commands: [Command] = []
        var shuttingDown = false

        /// Whether the pipeline has nothing to do until something is posted:
        /// commands wait for a frame while it `encoding`.
        func isIdle(encoding: Bool) -> Bool {
            backlog.items.isEmpty && sound.isEmpty && !shuttingDown && (encoding || commands.isEmpty)
        }
    }

    /// Frames held for the pipeline: at 1080p, 3 MB each. One that falls behind
    /// loses the oldest frames (a take counts them as the gaps they leave),
    /// never the first frame of a take.
    static let backlogCapacity = 4
    /// Sound blocks held for the pipeline: 20 s of 10 ms blocks. One that falls
    /// further behind loses the oldest, which the take's sound places as a gap.
    static let soundCapacity = 2000
    /// How long after a frame's capture the commands for it are read: more than
    /// an input event takes from the kernel to `start(at:)`.
    static let commandDelay = Duration.milliseconds(10)

    private let inbox: Mailbox<Inbox>
    private let events: Mailbox<[Event]>
    /// The encoder the recorder was made with, e.g. `libx264`, or `mjpeg
    /// pass-through`; empty for one that opens its cameras itself, whose
    /// every stream picks its own.
    public let encoderName: String
    private let camera: CameraSession
    private let pipeline: WorkerThread
    private let clock: any RigClock
    private let soundCapture: SoundCapture?
    /// The framing preview, which the pipeline feeds while it is watched.
    public let preview = PreviewFeed()
    /// What the page shows of the recording as it goes.
    let gauges = RecorderGauges()

    /// Records `source` (moved to its session's thread): opens the encoder (the
    /// first of `codecs` that opens) and starts encoding; takes start with
    /// `start(at:)`. With `passThrough`, a source's compressed frames go into the
    /// takes as they come, without an encoder. `exports` runs exports (none: an
    /// export is refused); `proxy` writes a proxy beside each take; `onEvent`
    /// is called whenever `takeEvents()` has something.
    public convenience init(
        source: sending FrameSource, ledger: TakeLedger, exports: TakeExports? = nil, codecs: [String],
        passThrough: Bool = false, preroll: Duration = .zero, rotation: Int = 0, proxy: ProxySpec? = nil,
        sound: sending SoundRecording? = nil, logger: Logger, onEvent: (@Sendable () -> Void)? = nil,
        clock: any RigClock = SystemClock()
    ) throws {
        let stream = Stream(
            format: source.format, codecs: codecs, passThrough: passThrough, rotation: rotation, mirrored: false,
            preroll: preroll, cameraZoom: nil, zoomLimit: ZoomRamp.limit, proxy: proxy)
        let encoder = try TakeEncoder(format: source.format, codecs: codecs, passThrough: passThrough, proxy: proxy)
        try self.init(
            ledger: ledger, exports: exports, logger: logger, onEvent: onEvent, first: (stream, encoder), source: source,
            opener: nil, sound: sound, clock: clock)
    }

    /// A recorder for `slate run`: no camera until `open(_:)`, which `opener`
    /// carries out on the camera session's thread.
    public convenience init(
        ledger: TakeLedger, exports: TakeExports?, opener: sending CameraOpener, sound: sending SoundRecording? = nil,
        logger: Logger, onEvent: (@Sendable () -> Void)? = nil, clock: any RigClock = SystemClock()
    ) throws {
        try self.init(
            ledger: ledger, exports: exports, logger: logger, onEvent: onEvent, first: nil, source: nil, opener: opener,
            sound: sound, clock: clock)
    }

    /// The camera session's and the pipeline's threads take part in `clock`'s time.
    private init(
        ledger: TakeLedger, exports: TakeExports?, logger: Logger, onEvent: (@Sendable () -> Void)?,
        first: sending (Stream, TakeEncoder)?, source: sending FrameSource?, opener: sending CameraOpener?,
        sound: sending SoundRecording?, clock: any RigClock
    ) throws {
        let inbox = try Mailbox(Inbox())
        let events = try Mailbox<[Event]>()
        self.inbox = inbox
        self.events = events
        self.clock = clock
        encoderName = first?.1.name ?? ""
        camera = try CameraSession(pipeline: inbox, source: source, opener: opener, logger: logger, clock: clock)
        let soundSettings = sound?.settings
        let (preview, gauges) = (preview, gauges)
        let state = TakePipeline(
            inbox: inbox, ledger: ledger, exports: exports, sound: soundSettings.map { TakeSound(settings: $0) },
            preview: preview, gauges: gauges, logger: logger, clock: clock,
            report: { event in
                events.post(event)
                onEvent?()
            })
        pipeline = try WorkerThread(name: "slate-takes", clock: clock) {
            state.run(first: first)
        }
        if let sound, let source = sound.takeSource() {
            soundCapture = try SoundCapture(source: source, device: sound.settings.device, logger: logger) { delivery in
                switch delivery {
                case .block(let block): gauges.add(block)
                case .lost: gauges.soundLost()
                case .back: break
                }
                inbox.post { inbox in
                    if inbox.sound.count >= TakeRecorder.soundCapacity { inbox.sound.removeFirst() }
                    inbox.sound.append(delivery)
                }
            }
        } else {
            soundCapture = nil
        }
    }

    deinit { shutdown() }

    /// Starts a take with the frame captured at or after `time`; the camera
    /// session sets the profile's camera settings again where they drifted.
    public func start(at time: Instant) {
        inbox.post { inbox in
            inbox.backlog.protect(from: time)
            inbox.commands.append(.start(time))
        }
        camera.applySettings()
    }

    public func stop(at time: Instant) { inbox.post { $0.commands.append(.stop(time)) } }

    /// Deletes the last finished take (after a take in progress has closed).
    public func deleteLast() { inbox.post { $0.commands.append(.deleteLast) } }

    /// Deletes the finished take `number` (from 1, among the takes not held by an export).
    public func delete(_ choice: TakeChoice) { inbox.post { $0.commands.append(.delete(choice)) } }

    /// Brings back from the trash the take whose file is `file`, or (nil) the last deleted.
    public func undelete(_ file: String?) { inbox.post { $0.commands.append(.undelete(file)) } }

    /// Marks the take in progress at the frame of `time` (one starting gets it once it opens).
    public func mark(_ name: String?, at time: Instant) { inbox.post { $0.commands.append(.mark(name, at: time)) } }

    /// Joins the finished takes into one file in `outputFolder`, once a take
    /// in progress has closed; the takes are deleted only when the result checks out.
    public func export(_ options: TakeExporter.Options, to outputFolder: String) {
        inbox.post { $0.commands.append(.export(ExportOrder(options: options, outputFolder: outputFolder))) }
    }

    /// Opens a camera as `opening` says (on the camera session's thread); what
    /// became of it comes from `takeEvents()`.
    public func open(_ opening: CameraOpening) { camera.open(opening) }

    /// Switches to the camera and rate `opening` says; a take in progress is
    /// split at `time` when `splitting` (a take file holds one format).
    public func switchTo(_ opening: CameraOpening, splitting: Bool, at time: Instant) {
        inbox.post { $0.commands.append(.awaitSwitch) }
        camera.switchTo(opening, splitAt: splitting ? time : nil)
    }

    /// Aims the zoom at `factor` (the pipeline ramps it frame by frame).
    public func zoom(to factor: Double) { inbox.post { $0.commands.append(.zoom(factor)) } }

    /// Turns the camera's torch on or off; a failure comes from `takeEvents()`.
    public func torch(_ on: Bool) { camera.torch(on) }

    /// Sets a V4L2 control of the camera, through its session.
    public func setControl(_ id: CameraControl.ID, _ value: Int64) { camera.setControl(id, value) }

    /// Saves or loads a preset of the camera's controls in `folder`, through its session.
    public func preset(_ command: PresetCommand, in folder: String) { camera.preset(command, in: folder) }

    /// Silences the takes' sound from `from` to `until`, while a feedback
    /// sound plays on the card the sound is captured from.
    public func muteSound(from: Instant, until: Instant) {
        inbox.post { $0.commands.append(.muteSound(from: from, until: until)) }
    }

    /// Commands from buttons come up to `delay` later than their events (the
    /// profile's longest debounce window, which a release waits out): frames
    /// wait that much longer for them, so a take that a click starts or stops
    /// still begins or ends with the frame at its time, and the backlog holds
    /// the frames captured meanwhile (at up to 60 fps) on top of its capacity.
    public func awaitButtons(delayedBy delay: Duration) {
        let frames = Int((delay.microseconds * 60 + 999_999) / 1_000_000)
        inbox.post { inbox in
            inbox.buttonDelay = delay
            inbox.backlog.capacity = TakeRecorder.backlogCapacity + frames
        }
    }

    /// Keeps `preroll` of video from before each press, from now on.
    public func preroll(_ preroll: Duration) { inbox.post { $0.commands.append(.preroll(preroll)) } }

    /// Stops streaming; a take in progress is closed.
    public func closeCamera() { camera.close() }

    /// What happened since the last call.
    public func takeEvents() -> [Event] { events.letters() }

    /// Waits until `takeEvents()` has something or `milliseconds` pass.
    public func waitForEvents(milliseconds: Int32) {
        clock.wait(for: events, until: clock.now() + .milliseconds(milliseconds))
    }

    /// Stops the camera and the sound, closes a take in progress and joins the threads.
    public func shutdown() {
        camera.shutdown()
        soundCapture?.shutdown()
        inbox.post { $0.shuttingDown = true }
        pipeline.join()
    }
}

/// The take pipeline's state, on its own thread: the encoder, the take router,
/// the take file being written and the frame tuning.
final class TakePipeline {
    private typealias Command = TakeRecorder.Command
    private let inbox: Mailbox<TakeRecorder.Inbox>
    private let ledger: TakeLedger
    private let exports: TakeExports?
    private let log: Logger
    private let report: @Sendable (TakeRecorder.Event) -> Void
    /// The takes' sound, for a rig that records it.
    private let sound: TakeSound?
    private let preview: PreviewFeed
    private let gauges: RecorderGauges
    private let clock: any RigClock
    /// When the last preview picture's frame was captured.
    private var previewed: Instant?
    private var previewFailed = false
    /// How long a closing take waits for the sound of its last frames.
    static let soundWait = Duration.milliseconds(150)

    private var encoder: TakeEncoder?
    private var stream: TakeRecorder.Stream?
    private var tuning: FrameTuning?
    private var tuningFailed = false
    private var zoomTarget = 1.0
    /// The preroll a control set, which outlasts a switch of camera.
    private var prerollSetting: Duration?
    private var router: TakeRouter<TakePacket>
    private var writer: TakeWriter?
    /// The take's proxy file, while it is written; nil once it failed.
    private var proxyFile: ProxyFile?
    /// The take's proxy was removed, holding no frame: the take closes unlisting it.
    private var proxyRemoved = false
    private var take: TakeManifest.Take?
    /// Markers asked for before the take they mark had its first frame; dropped
    /// when no take opens (a stop before it, a start that failed, the stream's end).
    private var earlyMarkers: [(name: String?, at: Instant)] = []
    private var firstPts: Int64?
    /// When the take in progress's first frame was captured: its sound's start.
    private var takeStart: Instant?
    /// The take in progress's number, as its `opened` event gave it.
    private var takeNumber = 0
    private var lastPts: Int64 = 0
    /// What becomes of the commands: held by a switch, or waiting for a take to close.
    private var flow = TakeFlow<TakeRecorder.ExportOrder>()
    private var captureTimes = [Instant](repeating: Instant(microseconds: 0), count: 64)
    private var index: Int64 = -1
    private var streamStart: Instant?
    private var previous: Instant?

    init(
        inbox: Mailbox<TakeRecorder.Inbox>, ledger: TakeLedger, exports: TakeExports?, sound: TakeSound?,
        preview: PreviewFeed, gauges: RecorderGauges, logger: Logger, clock: any RigClock,
        report: @escaping @Sendable (TakeRecorder.Event) -> Void
    ) {
        self.clock = clock
        self.inbox = inbox
        self.sound = sound
        self.preview = preview
        self.gauges = gauges
        self.ledger = ledger
        self.exports = exports
        self.log = logger
        self.report = report
        router = TakeRouter(preroll: .zero)
    }

    private var folder: TakeFolder { ledger.folder }

    /// Encodes what the camera session delivers until the recorder shuts down.
    func run(first: (TakeRecorder.Stream, TakeEncoder)?) {
        if let (stream, encoder) = first { begin(stream, encoder: encoder) }
        while true {
            let (delivery, sounds, shuttingDown, buttonDelay) = inbox.collect { inbox in
                defer { inbox.sound.removeAll(keepingCapacity: true) }
                return (inbox.backlog.pop()?.item, inbox.sound, inbox.shuttingDown, inbox.buttonDelay)
            }
            receive(sounds)
            switch delivery {
            case .frame(let capture): record(capture, buttonDelay: buttonDelay)
            case .stream(let stream, let said, let startAt): switchStream(to: stream, said: said, startAt: startAt)
            case .end(let lost):
                finishStream()
                report(lost.map(TakeRecorder.Event.sourceLost) ?? .cameraClosed)
            case .switched: releaseHeld()
            case .event(let event): report(event)
            case nil:
                if encoder == nil { takeCommands() }
                if shuttingDown {
                    finishStream()
                    return
                }
                // Checked in the same collect that clears the bell, so nothing
                // posted since the collect above is slept through.
                let encoding = encoder != nil
                if inbox.collect({ $0.isIdle(encoding: encoding) }) { clock.wait(for: inbox) }
            }
        }
    }

    /// Starts encoding a new stream.
    private func begin(_ stream: TakeRecorder.Stream, encoder: TakeEncoder) {
        self.stream = stream
        self.encoder = encoder
        flow.streamStarted()
        tuning = FrameTuning(mirrored: stream.mirrored, cameraMaximum: stream.zoomLimit, cameraZoom: stream.cameraZoom)
        _ = tuning?.aim(at: zoomTarget)
        tuningFailed = false
        (index, streamStart, previous) = (-1, nil, nil)
        router = TakeRouter(preroll: prerollSetting ?? stream.preroll)
        sound?.keep = router.preroll + .seconds(3)
        gauges.streams(stream.format, encoder: encoder.name)
        if let failure = encoder.takeProxyFailure() {
            report(.failed(failure))
        } else if let proxy = stream.proxy, encoder.proxyEncoder == nil {
            let size = "\(stream.format.width)x\(stream.format.height)"
            log.warning("the camera's \(size) is no larger than the \(proxy.height)p proxy: its takes have no proxy")
        }
    }

    /// The camera streams something else: the take in progress closes with the
    /// last frame of the old stream and, when it was split, goes on in the new one.
    private func switchStream(to stream: TakeRecorder.Stream, said: TakeRecorder.Event, startAt: Instant?) {
        finishStream()
        // The camera is said to stream once its frames can be recorded.
        do {
            let encoder = try TakeEncoder(
                format: stream.format, codecs: stream.codecs, passThrough: stream.passThrough, proxy: stream.proxy)
            begin(stream, encoder: encoder)
            report(said)
        } catch {
            report(said)
            report(.failed("the camera's frames cannot be recorded: \(error)"))
            return
        }
        if let startAt {
            inbox.post { $0.backlog.protect(from: startAt) }
            apply(router.start(at: startAt), current: nil)
        }
    }

    /// The stream ended: a take in progress closes with its last frame.
    private func finishStream() {
        guard encoder != nil else { return }
        apply(router.end(), current: nil)
        earlyMarkers.removeAll()
        encoder = nil
        stream = nil
        tuning = nil
        gauges.streams(nil, encoder: "")
        flow.streamEnded()
        takeCommands()
    }

    private func record(_ capture: CameraFrame, buttonDelay: Duration) {
        guard let encoder, var frame = encoder.unpacked(capture) else { return }
        // A button's command reaches this thread a little after its event (a
        // release's, after its debounce window): a frame is matched with
        // commands once they have had time to arrive.
        clock.sleep(until: frame.time + TakeRecorder.commandDelay + buttonDelay)
        takeSound()
        takeCommands()
        if let tuning {
            do {
                frame = try tuning.apply(frame, interval: previous.map { frame.time - $0 } ?? .zero)
            } catch {
                if !tuningFailed { log.error("frames are recorded without mirroring or digital zoom: \(error)") }
                tuningFailed = true
            }
        }
        previous = frame.time
        let keyframe = router.needsKeyframe(forFrameAt: frame.time)
        // Timestamps follow capture times, so frames the camera dropped leave gaps
        // instead of making the take play faster.
        let start = streamStart ?? frame.time
        streamStart = start
        let elapsed = frame.time.microseconds - start.microseconds
        index = max(index + 1, encoder.fps.frame(at: elapsed))
        captureTimes[Int(index % 64)] = frame.time
        do {
            // The proxy is made of the frames a take may hold: while one records or starts, or pre-roll keeps them.
            let proxy = router.isRecording || router.preroll > .zero || keyframe
            for packet in try encoder.packets(for: frame, pts: index, keyframe: keyframe, proxy: proxy) {
                let pts = packet.take.pts
                let timed = TakeRouter<TakePacket>.Timed(
                    time: captureTimes[Int(pts % 64)], isKeyframe: packet.isKeyframe, packet: packet)
                apply(router.packet(timed), current: pts == index ? frame : nil)
            }
        } catch {
            report(.failed("\(error)"))
        }
        if let failure = encoder.takeProxyFailure() { report(.failed(failure)) }
        showPreview(of: frame, encoder: encoder)
    }

    /// Makes a picture of the framing preview from `frame` (as it is encoded,
    /// zoomed and mirrored) when anyone watches and the last is old enough.
    private func showPreview(of frame: CameraFrame, encoder: TakeEncoder) {
        guard preview.isWatched else {
            previewed = nil
            return
        }
        let interval = Duration.microseconds(1_000_000 / Int64(PreviewFeed.rate))
        if let previewed, frame.time - previewed < interval - .milliseconds(5) { return }
        previewed = frame.time
        guard let picture = encoder.picture(of: frame) else { return }
        do {
            preview.publish(try JPEGThumbnail.picture(picture, maximumWidth: PreviewFeed.width))
            previewFailed = false
        } catch {
            if !previewFailed { log.warning("the framing preview: \(error)") }
            previewFailed = true
        }
    }

    /// Hands what the sound capture delivered to the takes' sound.
    private func takeSound() {
        receive(
            inbox.collect { inbox in
                defer { inbox.sound.removeAll(keepingCapacity: true) }
                return inbox.sound
            })
    }

    private func receive(_ deliveries: [SoundCapture.Delivery]) {
        guard let sound, !deliveries.isEmpty else { return }
        let number = take != nil ? takeNumber : nil
        for delivery in deliveries {
            if let message = sound.receive(delivery, take: number) { report(.failed(message)) }
        }
    }

    /// Writes the take's sound packets encoded so far.
    /// The proxy gets the same packets; one it cannot take stops it.
    private func writeSound(_ packets: [EncodedPacket]? = nil) throws(MediaError) {
        guard let writer, writer.sound != nil, let sound else { return }
        let packets = packets ?? sound.takePackets()
        for packet in packets { try writer.writeSound(packet) }
        do {
            try proxyFile?.writeSound(packets)
        } catch {
            stopProxyFile(error)
        }
    }

    /// Hands the commands posted since the last frame to the flow, one at a
    /// time, carrying out what each leads to. Without a stream, takes cannot start.
    private func takeCommands() {
        let commands = inbox.collect { inbox in
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
        take(commands)
    }

    private func take(_ commands: [Command]) {
        for command in commands { carryOut(flow.received(command)) }
        carryOut(flow.commandsTaken())
    }

    /// The switch is over: the commands it held go on, in order, those posted
    /// since the last frame last (they join the held ones first).
    private func releaseHeld() {
        takeCommands()
        take(flow.switchEnded())
    }

    private func carryOut(_ actions: [TakeFlow<TakeRecorder.ExportOrder>.Action]) {
        for action in actions {
            switch action {
            case .start(let time): apply(router.start(at: time), current: nil)
            case .stop(let time):
                if take == nil { earlyMarkers.removeAll() }
                apply(router.stop(at: time), current: nil)
            case .zoom(let factor):
                zoomTarget = factor
                _ = tuning?.aim(at: factor)
            case .preroll(let preroll):
                prerollSetting = preroll
                router.preroll = preroll
                sound?.keep = preroll + .seconds(3)
            case .muteSound(let from, let until): sound?.mute(from: from, until: until)
            case .startFailed(let reason):
                earlyMarkers.removeAll()
                report(.startFailed(reason))
            case .deleteLast: deleteLastTake()
            case .delete(let choice): deleteTake(choice)
            case .undelete(let file): undeleteTake(file)
            case .mark(let name, let at): markTake(name, at: at)
            case .export(let order): dispatchExport(order.options, to: order.outputFolder)
            }
        }
    }

    private func dispatchExport(_ options: TakeExporter.Options, to outputFolder: String) {
        guard let exports else {
            report(.failed("export: this recorder does not export"))
            return
        }
        let ids = ledger.reserveAvailable()
        guard !ids.isEmpty else { return }
        exports.export(ids, options: options, to: outputFolder)
    }

    private func apply(_ outputs: [TakeRouter<TakePacket>.Output], current frame: CameraFrame?) {
        for output in outputs {
            switch output {
            case .open(let firstFrame): open(firstFrame: firstFrame)
            case .write(let timed): write(timed, frame: frame)
            case .close:
                close(early: nil)
                carryOut(flow.takeClosed())
            }
        }
    }

    private func open(firstFrame: Instant) {
        guard let encoder else { return }
        let age = clock.now().microseconds - firstFrame.microseconds
        let started = WallClock.microseconds() - max(0, age)
        do {
            try folder.reserveSpace()
        } catch {
            log.warning("\(error)")
        }
        // The take is listed before its file exists, so a crash at any point
        // leaves nothing unlisted: recovery measures the file, or drops the entry.
        var take = newTake(in: ledger.manifest, started: started, encoder: encoder)
        take.fps = encoder.fps
        take.timecode = Timecode(microsecondsOfDay: LocalTime.microsecondsOfDay(started), rate: encoder.fps).description
        if encoder.proxyEncoder != nil, let naming = stream?.proxy?.naming { take.proxy = naming.path(for: take.file) }
        var created = false
        var soundParameters: AudioStreamParameters?
        if let sound {
            do {
                soundParameters = try sound.open(at: firstFrame, pcm: encoder.fileExtension == "mov")
            } catch {
                report(.failed("take \(ledger.availableCount + 1) is recorded without sound: \(error)"))
            }
        }
        do {
            try ledger.change(undoIfUnsaved: true) { $0.takes.append(take) }
            let fd = try folder.create(take.file)
            created = true
            writer = try TakeWriter(
                fd: fd, named: take.file, in: folder.directory, parameters: encoder.parameters, rotation: stream?.rotation ?? 0,
                sound: soundParameters, stamp: TakeWriter.Stamp(created: started, timecode: take.timecode, rate: encoder.fps))
            proxyFile = openProxy(of: &take, encoder: encoder, sound: soundParameters)
            proxyRemoved = false
        } catch {
            sound?.abandon()
            router.abandon()
            if created { try? folder.directory.remove(take.file) }
            try? ledger.change { manifest in manifest.takes.removeAll { $0.id == take.id && $0.recording } }
            earlyMarkers.removeAll()
            report(.startFailed("a take could not start: \(error)"))
            return
        }
        self.take = take
        firstPts = nil
        takeStart = firstFrame
        for marker in earlyMarkers { markTake(marker.name, at: marker.at) }
        earlyMarkers.removeAll()
        takeNumber = ledger.availableCount + 1
        flow.takeOpened()
        gauges.take(TakeSummary())
        report(.opened(take, number: takeNumber, firstFrame: firstFrame))
    }

    /// Opens the proxy of `take`, as it is listed; one that cannot be opened
    /// is said and unlisted, and the take goes on without it.
    private func openProxy(
        of take: inout TakeManifest.Take, encoder: TakeEncoder, sound: AudioStreamParameters?
    ) -> ProxyFile? {
        guard let path = take.proxy, let proxyEncoder = encoder.proxyEncoder else { return nil }
        do {
            return try ProxyFile(
                path, in: folder, proxy: proxyEncoder, rotation: stream?.rotation ?? 0, sound: sound,
                stamp: TakeWriter.Stamp(created: take.started, timecode: take.timecode, rate: encoder.fps))
        } catch {
            take.proxy = nil
            report(.failed("take \(ledger.availableCount + 1) is recorded without its proxy: \(error)"))
            return nil
        }
    }

    /// The proxy of the take in progress cannot be written: it stops, keeping
    /// its complete fragments (and its listing, unless it keeps no frame); the take goes on.
    private func stopProxyFile(_ error: MediaError) {
        guard let proxyFile else { return }
        proxyFile.abandon()
        self.proxyFile = nil
        let reason = error.isDiskFull ? "the disk is full" : error.reason
        report(.failed("the proxy \(proxyFile.path) stopped, \(reason); it keeps its first \(proxyFile.frames) frames"))
        removeIfEmpty(proxyFile)
    }

    /// Removes a proxy that holds no frame; the take closes unlisting it.
    private func removeIfEmpty(_ proxyFile: ProxyFile) {
        guard proxyFile.frames == 0 else { return }
        proxyFile.remove()
        proxyRemoved = true
    }

    /// A take starting at `started` with an id no take of `manifest` has and a
    /// file name no file in the folder has.
    private func newTake(in manifest: TakeManifest, started: Int64, encoder: TakeEncoder) -> TakeManifest.Take {
        var number = Int(manifest.nextID()) ?? 1
        while true {
            let id = TakeManifest.id(number: number)
            let name = TakeManifest.takeFileName(started: started, id: id, extension: encoder.fileExtension)
            let proxy = stream?.proxy.map { $0.naming.path(for: name) }
            if !folder.directory.contains(name), !(proxy.map(folder.directory.contains) ?? false) {
                return TakeManifest.Take(
                    id: id, file: name, thumbnail: nil, started: started, codec: encoder.parameters.codec, recording: true)
            }
            number += 1
        }
    }

    private func write(_ timed: TakeRouter<TakePacket>.Timed, frame: CameraFrame?) {
        guard let writer, var take, let encoder else { return }
        let isFirst = firstPts == nil
        let first = firstPts ?? timed.packet.take.pts
        firstPts = first
        var packet = timed.packet.take
        packet.pts -= first
        packet.dts -= first
        do {
            if let encoder = self.encoder { sound?.advance(to: timed.time + encoder.fps.frameLength) }
            try writeSound()
            try writer.write(packet)
        } catch {
            fail(take, writer: writer, error)
            return
        }
        if let proxyFile, let proxyPacket = timed.packet.proxy {
            do {
                try proxyFile.write(proxyPacket, pts: packet.pts)
            } catch {
                stopProxyFile(error)
            }
        }
        lastPts = isFirst ? timed.packet.take.pts : max(lastPts, timed.packet.take.pts)
        take.summary.frames += 1
        measure(&take)
        gauges.take(take.summary)
        if take.thumbnail == nil, let capture = frame, packet.pts >= encoder.fps.nominal / 20,
            let frame = encoder.picture(of: capture)
        {
            let name = TakeManifest.thumbnailName(for: take.file)
            do {
                try JPEGThumbnail.write(
                    frame, named: name, in: folder.directory, mode: folder.access.fileMode, rotation: stream?.rotation ?? 0)
                take.thumbnail = name
            } catch {
                log.warning("thumbnail: \(error)")
            }
        }
        self.take = take
    }

    /// Closes the take in progress. Every gap in it (frames the camera or the
    /// backlog dropped) counts in `dropped`: its timestamps follow capture times.
    private func close(early: String?) {
        earlyMarkers.removeAll()
        guard var take else { return }
        var soundSummary: SoundSummary?
        var cutBack = false
        do {
            soundSummary = try finishSound()
            try writer?.finish()
        } catch {
            cutBack = true
            // The last fragment was not written: the take is what its complete fragments hold.
            if let kept = writer?.complete {
                take.summary.frames = kept.packets
                if kept.packets == 0 { firstPts = nil }
                lastPts = (firstPts ?? 0) + kept.end - 1
            }
            report(.failed("\(error); the take keeps its first \(take.summary.frames) frames"))
        }
        writer = nil
        if let proxyFile {
            close(proxyFile, cutBack: cutBack)
            self.proxyFile = nil
        }
        if proxyRemoved { take.proxy = nil }
        measure(&take)
        take.recording = false
        take.sound = soundSummary?.duration
        self.take = nil
        do {
            try ledger.change { manifest in
                if let slot = manifest.takes.lastIndex(where: { $0.id == take.id }) { manifest.takes[slot] = take }
            }
        } catch {
            report(.failed("the take list was not saved: \(error)"))
        }
        report(.closed(take, number: ledger.number(of: take.id) ?? ledger.availableCount, early: early, sound: soundSummary))
    }

    /// Closes the take's proxy with it: finished, or cut back to its complete
    /// fragments as the take was (`cutBack`), so it holds no frame its take
    /// does not; one that holds no frame is removed and unlisted.
    private func close(_ proxyFile: ProxyFile, cutBack: Bool) {
        if cutBack {
            proxyFile.abandon()
        } else {
            do {
                try proxyFile.finish()
            } catch {
                report(.failed("\(error); the proxy keeps its first \(proxyFile.frames) frames"))
            }
        }
        removeIfEmpty(proxyFile)
    }

    /// Sets the take's duration from its first to its last timestamp, and counts
    /// every gap in between (frames the camera or the backlog dropped) in `dropped`;
    /// a take that keeps no frame lasts nothing.
    private func measure(_ take: inout TakeManifest.Take) {
        guard let first = firstPts else {
            take.summary.duration = .zero
            take.summary.dropped = 0
            return
        }
        let slots = Int(lastPts - first + 1)
        take.summary.duration = .microseconds((encoder?.fps ?? FrameRate(1)).microseconds(toFrame: Int64(slots)))
        take.summary.dropped = max(0, slots - take.summary.frames)
    }

    /// Ends the take's sound with its picture: waits (a little) for the sound
    /// of its last frames, then writes the last sound packets.
    private func finishSound() throws(MediaError) -> SoundSummary? {
        guard let sound, let writer, writer.sound != nil, let first = firstPts, let encoder, let start = takeStart else {
            return nil
        }
        let end = start + .microseconds(encoder.fps.microseconds(toFrame: lastPts - first + 1))
        sound.finish(at: end)
        let deadline = end + Self.soundWait
        takeSound()
        while !sound.isComplete && clock.now() < deadline {
            clock.wait(for: inbox, until: min(deadline, clock.now() + .milliseconds(10)))
            takeSound()
        }
        try writeSound()
        guard let (packets, summary) = try sound.close() else { return nil }
        try writeSound(packets)
        return summary
    }

    /// Ends a take whose file could not be written: cut back to its complete
    /// fragments, which the manifest then describes. Nothing more is recorded
    /// until the next start.
    private func fail(_ take: TakeManifest.Take, writer: TakeWriter, _ error: MediaError) {
        var take = take
        let kept = writer.abandon()
        self.writer = nil
        if let proxyFile { close(proxyFile, cutBack: true) }
        proxyFile = nil
        sound?.abandon()
        take.summary.frames = kept.packets
        firstPts = kept.packets > 0 ? firstPts : nil
        lastPts = (firstPts ?? 0) + kept.end - 1
        self.take = take
        router.abandon()
        let reason = error.isDiskFull ? "the disk is full" : error.reason
        close(early: "take \(writer.path) ended early, \(reason); it keeps its first \(kept.packets) frames")
        carryOut(flow.takeClosed())
    }

    private func deleteLastTake() {
        if let event = Self.deleteLast(in: ledger) { report(event) }
        purgeTrash()
    }

    /// Deletes for good the takes whose time in the trash is over.
    private func purgeTrash() {
        let folder = ledger.folder
        for note in folder.purge(ledger, at: WallClock.microseconds(), hours: folder.trashHours) { log.notice("\(note)") }
    }

    /// Deletes the take `choice` names among those not held by an export;
    /// one no longer there (a second client deleted it, an export took it) is refused.
    private func deleteTake(_ choice: TakeChoice) {
        let available = ledger.available
        switch choice {
        case .number(let number):
            guard available.indices.contains(number - 1) else {
                report(.deleteFailed("take \(number) cannot be deleted: there are \(available.count) takes"))
                return
            }
            report(Self.delete(available[number - 1], number: number, in: ledger))
        case .file(let name):
            guard let index = available.firstIndex(where: { $0.file == name }) else {
                report(.deleteFailed("\(name) cannot be deleted: no such take (deleted, or held by an export, meanwhile)"))
                return
            }
            report(Self.delete(available[index], number: index + 1, in: ledger))
        }
        purgeTrash()
    }

    /// Marks the open take at the frame of `time`, measured from its first
    /// frame (pre-roll included), with that frame's timecode, saved to the
    /// take list at once (a crash keeps it).
    private func markTake(_ name: String?, at time: Instant) {
        guard var take, let start = takeStart else {
            earlyMarkers.append((name, time))
            return
        }
        var marker = TakeMarker(at: max(.zero, time - start), name: name, timecode: nil)
        let rate = take.fps ?? FrameRate(30)
        marker.timecode =
            Timecode(microsecondsOfDay: LocalTime.microsecondsOfDay(take.started + marker.microseconds), rate: rate).description
        take.markers.append(marker)
        self.take = take
        do {
            try ledger.change { manifest in
                if let slot = manifest.takes.lastIndex(where: { $0.id == take.id }) {
                    manifest.takes[slot].markers = take.markers
                }
            }
        } catch {
            report(.failed("the marker was not saved to the take list: \(error)"))
        }
    }

    /// Brings back from the trash the take whose file is `file`, or (nil) the last deleted.
    private func undeleteTake(_ file: String?) {
        let trash = TakeTrash.contents(of: ledger.manifest)
        guard let take = file.map({ name in trash.first { $0.file == name } }) ?? trash.last else {
            report(.failed(file.map { "\($0) cannot be restored: it is not in the trash" } ?? "the trash is empty"))
            return
        }
        do {
            try ledger.folder.restore(take, from: ledger)
            report(.restored(take, number: ledger.number(of: take.id) ?? ledger.availableCount))
        } catch {
            report(.failed("\(take.file) cannot be restored: \(error)"))
        }
    }

    /// Deletes the last take not held by an export; nil when there is none.
    public static func deleteLast(in ledger: TakeLedger) -> TakeRecorder.Event? {
        guard let last = ledger.lastAvailable, let number = ledger.number(of: last.id) else { return nil }
        return delete(last, number: number, in: ledger)
    }

    private static func delete(_ take: TakeManifest.Take, number: Int, in ledger: TakeLedger) -> TakeRecorder.Event {
        do {
            try ledger.folder.discard(take, from: ledger, at: WallClock.microseconds())
            return .deleted(take, number: number)
        } catch {
            return .failed("\(error)")
        }
    }
}

import Glibc
import Logging
import SlateCore

/// Records takes from a frame source on a thread of its own: the source runs
/// and the encoder is ready all the time, so a take starts with the first frame
/// captured at or after its button's timestamp (or earlier, with pre-roll).
/// Each take is a fragmented MP4 (MOV for passed-through MJPEG) in the work folder
/// with a thumbnail from 0.05 s, listed in the folder's manifest, which is saved when
/// a take opens and closes. A take whose file cannot be written (a full disk) ends
/// there, playable up to its last complete fragment, and is reported as failed.
public final class TakeRecorder: @unchecked Sendable {
    /// What happened to a take, for the daemon's output.
    public enum Event: Sendable {
        /// A take opened; its first frame was captured at `firstFrame` (CLOCK_MONOTONIC).
        case opened(TakeManifest.Take, firstFrame: Instant)
        case closed(TakeManifest.Take)
        case deleted(TakeManifest.Take)
        case exported(TakeExporter.Outcome)
        /// An export did not happen; every take is kept.
        case exportFailed(String)
        case failed(String)
        /// The source failed (a camera unplugged): a take in progress was closed
        /// and the recorder has stopped.
        case sourceLost(String)
    }

    private enum Command {
        case start(Instant)
        case stop(Instant)
        case deleteLast
        case export(ExportFilter, outputFolder: String)
    }

    private let source: FrameSource
    private var queue: CaptureQueue!
    private let folder: TakeFolder
    private let encoder: CaptureEncoder
    private let rotation: Int
    private let tuning: FrameTuning?
    private let onEvent: (@Sendable () -> Void)?
    private let log: Logger
    /// How long after a frame's capture the commands for it are read: more than
    /// an input event takes from the kernel to `start(at:)`.
    static let commandDelay = Duration.milliseconds(10)
    private let shared = Monitor()
    private var commands: [Command] = []
    /// Deletes and exports wait until no take is open or closing.
    private var deferred: [Command] = []
    private var events: [Event] = []
    private var thread: pthread_t?

    // Owned by the recording thread.
    private var router: TakeRouter<EncodedPacket>
    private var manifest: TakeManifest
    private var writer: TakeWriter?
    private var take: TakeManifest.Take?
    private var firstPts: Int64?
    private var lastPts: Int64 = 0
    private var droppedAtOpen = 0
    private var captureTimes = [Instant](repeating: Instant(microseconds: 0), count: 64)

    /// Opens the encoder (the first of `codecs` that opens) and starts recording
    /// frames into the ring; takes start with `start(at:)`. With `passThrough`, a
    /// source's compressed frames go into the takes as they come, without an encoder.
    /// Takes a crash left marked as recording are measured and listed as finished.
    /// `tuning` zooms and mirrors raw frames; `onEvent` is called on the recording
    /// thread whenever there are new events to take.
    public init(
        source: FrameSource, folder: TakeFolder, codecs: [String], passThrough: Bool = false,
        preroll: Duration = .zero, rotation: Int = 0, tuning: FrameTuning? = nil, logger: Logger,
        onEvent: (@Sendable () -> Void)? = nil
    ) throws {
        self.source = source
        self.folder = folder
        self.rotation = rotation
        self.tuning = tuning
        self.onEvent = onEvent
        self.log = logger
        router = TakeRouter(preroll: preroll)
        manifest = try folder.load()
        for note in folder.recover(&manifest) { logger.warning("\(note)") }
        encoder = try CaptureEncoder(source: source, codecs: codecs, passThrough: passThrough)
        queue = try CaptureQueue(source: source)
        switch BackgroundThread.spawn({ [self] in record() }) {
        case .success(let handle): thread = handle
        case .failure(let error): throw error
        }
    }

    deinit { shutdown() }

    /// The encoder in use, e.g. `libx264`, or `mjpeg pass-through`.
    public var encoderName: String { encoder.name }

    public func start(at time: Instant) {
        queue.protect(from: time)
        post(.start(time))
    }

    public func stop(at time: Instant) { post(.stop(time)) }

    /// Deletes the last finished take (after a take in progress has closed).
    public func deleteLast() { post(.deleteLast) }

    /// Joins the finished takes into one file in `outputFolder`, once a take
    /// in progress has closed; the takes are deleted only when the result checks out.
    public func export(filter: ExportFilter, to outputFolder: String) { post(.export(filter, outputFolder: outputFolder)) }

    /// What happened since the last call.
    public func takeEvents() -> [Event] {
        shared.locked {
            defer { events.removeAll() }
            return events
        }
    }

    /// Stops the source, closes a take in progress and joins the threads.
    public func shutdown() {
        queue?.stop()
        let joining: pthread_t? = shared.locked {
            defer { thread = nil }
            return thread
        }
        if let joining { pthread_join(joining, nil) }
    }

    private func post(_ command: Command) { shared.locked { commands.append(command) } }

    private func report(_ event: Event) {
        shared.locked { events.append(event) }
        onEvent?()
    }

    private func record() {
        var index: Int64 = -1
        var streamStart: Instant?
        var previous: Instant?
        while true {
            guard let next = queue.next() else { break }
            guard var frame = next.unpacked() else { continue }
            // A button's command reaches this thread a little after its event: a
            // frame is matched with commands once they have had time to arrive.
            MonotonicClock.sleep(until: frame.time + Self.commandDelay)
            takeCommands(ended: false)
            runDeferred()
            if let tuning {
                frame = tuning.apply(frame, interval: previous.map { frame.time - $0 } ?? .zero)
            }
            previous = frame.time
            let keyframe = router.needsKeyframe(forFrameAt: frame.time)
            // Timestamps follow capture times, so frames the camera dropped leave gaps
            // instead of making the take play faster.
            let start = streamStart ?? frame.time
            streamStart = start
            let elapsed = frame.time.microseconds - start.microseconds
            index = max(index + 1, (elapsed * Int64(encoder.fps) + 500_000) / 1_000_000)
            captureTimes[Int(index % 64)] = frame.time
            do {
                for packet in try encoder.packets(for: frame, pts: index, keyframe: keyframe) {
                    let timed = TakeRouter<EncodedPacket>.Timed(
                        time: captureTimes[Int(packet.pts % 64)], isKeyframe: packet.isKeyframe, packet: packet)
                    apply(router.packet(timed), current: packet.pts == index ? frame : nil)
                }
            } catch {
                report(.failed("\(error)"))
            }
            runDeferred()
        }
        apply(router.end(), current: nil)
        takeCommands(ended: true)
        runDeferred()
        if let lost = queue.failed { report(.sourceLost(lost)) }
    }

    /// Carries out the commands posted since the last frame. Once the source has
    /// ended, takes can no longer start.
    private func takeCommands(ended: Bool) {
        for command in shared.locked({ () -> [Command] in
            defer { commands.removeAll() }
            return commands
        }) {
            switch command {
            case .start(let time) where !ended: apply(router.start(at: time), current: nil)
            case .stop(let time) where !ended: apply(router.stop(at: time), current: nil)
            case .start, .stop: break
            case .deleteLast, .export: deferred.append(command)
            }
        }
    }

    /// Deletes and exports, in order, once no take is open or closing.
    private func runDeferred() {
        guard !router.isRecording else { return }
        while !deferred.isEmpty {
            switch deferred.removeFirst() {
            case .deleteLast: deleteLastTake()
            case .export(let filter, let outputFolder): exportTakes(filter: filter, to: outputFolder)
            case .start, .stop: break
            }
        }
    }

    private func exportTakes(filter: ExportFilter, to outputFolder: String) {
        report(Self.export(folder, filter: filter, to: outputFolder))
        do {
            manifest = try folder.load()
        } catch {
            report(.failed("\(error)"))
        }
    }

    /// Joins `folder`'s finished takes into one file in `outputFolder`: what a
    /// recorder does on its thread, and `slate run` does itself without a camera.
    public static func export(_ folder: TakeFolder, filter: ExportFilter, to outputFolder: String) -> Event {
        do {
            try FileWriting.makeFolders(outputFolder)
            return .exported(
                try TakeExporter(folder: folder, outputFolder: outputFolder).export(
                    at: WallClock.microseconds(), filter: filter))
        } catch {
            return .exportFailed("\(error)")
        }
    }

    private func apply(_ outputs: [TakeRouter<EncodedPacket>.Output], current frame: Capture?) {
        for output in outputs {
            switch output {
            case .open(let firstFrame): open(firstFrame: firstFrame)
            case .write(let timed): write(timed, frame: frame)
            case .close: close()
            }
        }
    }

    private func open(firstFrame: Instant) {
        let age = MonotonicClock.now().microseconds - firstFrame.microseconds
        let started = WallClock.microseconds() - max(0, age)
        let id = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let name = TakeManifest.takeFileName(started: started, id: id, extension: encoder.fileExtension)
        do {
            try folder.reserveSpace()
        } catch {
            log.warning("\(error)")
        }
        do {
            writer = try TakeWriter(path: folder.file(name), parameters: encoder.parameters, rotation: rotation)
        } catch {
            report(.failed("\(error)"))
            return
        }
        let take = TakeManifest.Take(
            id: id, file: name, thumbnail: nil, started: started, codec: encoder.parameters.codec, recording: true)
        self.take = take
        firstPts = nil
        droppedAtOpen = queue.droppedFrames
        manifest.takes.append(take)
        save()
        report(.opened(take, firstFrame: firstFrame))
    }

    private func write(_ timed: TakeRouter<EncodedPacket>.Timed, frame: Capture?) {
        guard let writer, var take else { return }
        let first = firstPts ?? timed.packet.pts
        firstPts = first
        var packet = timed.packet
        packet.pts -= first
        packet.dts -= first
        do {
            try writer.write(packet)
        } catch {
            fail(take, writer: writer, error)
            return
        }
        lastPts = timed.packet.pts
        take.frames += 1
        if take.thumbnail == nil, let capture = frame, packet.pts >= Int64(encoder.fps) / 20,
            let frame = encoder.picture(of: capture)
        {
            let name = String(take.file.dropLast(4)) + ".jpg"
            do {
                try JPEGThumbnail.write(frame, to: folder.file(name))
                take.thumbnail = name
            } catch {
                log.warning("thumbnail: \(error)")
            }
        }
        self.take = take
    }

    private func close() {
        guard var take else { return }
        do {
            try writer?.finish()
        } catch {
            report(.failed("\(error)"))
        }
        writer = nil
        if let first = firstPts {
            take.duration = .microseconds((lastPts - first + 1) * 1_000_000 / Int64(encoder.fps))
        }
        take.dropped = queue.droppedFrames - droppedAtOpen
        take.recording = false
        self.take = nil
        if let slot = manifest.takes.lastIndex(where: { $0.id == take.id }) { manifest.takes[slot] = take }
        save()
        report(.closed(take))
    }

    /// Ends a take whose file could not be written: cut back to its complete
    /// fragments, which the manifest then describes.
    private func fail(_ take: TakeManifest.Take, writer: TakeWriter, _ error: MediaError) {
        var take = take
        let kept = writer.abandon()
        self.writer = nil
        take.frames = kept.packets
        firstPts = kept.packets > 0 ? firstPts : nil
        lastPts = (firstPts ?? 0) + kept.end - 1
        self.take = take
        let reason = error.isDiskFull ? "the disk is full" : error.reason
        report(.failed("take \(writer.path) ended early, \(reason); it keeps its first \(kept.packets) frames"))
        close()
    }

    private func deleteLastTake() {
        if let event = Self.deleteLast(in: folder, manifest: &manifest) { report(event) }
    }

    /// Deletes the last finished take of `manifest`, which is `folder`'s; nil when
    /// there is none.
    public static func deleteLast(in folder: TakeFolder, manifest: inout TakeManifest) -> Event? {
        guard let last = manifest.takes.last(where: { !$0.recording }) else { return nil }
        do {
            try folder.delete(last, from: &manifest)
            return .deleted(last)
        } catch {
            return .failed("\(error)")
        }
    }

    private func save() {
        do {
            try folder.save(manifest)
        } catch {
            report(.failed("the take list was not saved: \(error)"))
        }
    }
}

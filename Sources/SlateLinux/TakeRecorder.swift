import Glibc
import Logging
import SlateCore

/// Records takes from a frame source on a thread of its own: the source runs
/// and the encoder is ready all the time, so a take starts with the first frame
/// captured at or after its button's timestamp (or earlier, with pre-roll).
/// Each take is a fragmented MP4 (MOV for passed-through MJPEG) in the work folder
/// with a thumbnail from 0.05 s, listed in the folder's manifest, which is saved when
/// a take opens and closes. A take whose file cannot be written (a full disk) ends
/// there, playable up to its last complete fragment, and is reported as failed; a
/// take whose file cannot be created leaves nothing behind. Exports are handed to
/// a `TakeExports` thread, so recording never waits for one.
public final class TakeRecorder: @unchecked Sendable {
    /// What happened to a take, for the daemon's output. `number` is the take's
    /// place among the takes not held by an export, from 1.
    public enum Event: Sendable {
        /// A take opened; its first frame was captured at `firstFrame` (CLOCK_MONOTONIC).
        case opened(TakeManifest.Take, number: Int, firstFrame: Instant)
        /// A take closed; `early` says why when it ended before its stop (a full disk).
        case closed(TakeManifest.Take, number: Int, early: String?)
        /// A take could not start; nothing of it was left behind.
        case startFailed(String)
        case deleted(TakeManifest.Take, number: Int)
        case failed(String)
        /// The source failed (a camera unplugged): a take in progress was closed
        /// and the recorder has stopped.
        case sourceLost(String)
    }

    private enum Command {
        case start(Instant)
        case stop(Instant)
        case deleteLast
        case export(TakeExporter.Options, outputFolder: String)
    }

    private let source: FrameSource
    private var queue: CaptureQueue!
    private let ledger: TakeLedger
    private let exports: TakeExports?
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
    /// Deletes and exports wait until no take is closing.
    private var deferred: [Command] = []
    private var events: [Event] = []
    private var thread: pthread_t?

    // Owned by the recording thread.
    private var router: TakeRouter<EncodedPacket>
    private var writer: TakeWriter?
    private var take: TakeManifest.Take?
    private var firstPts: Int64?
    private var lastPts: Int64 = 0
    /// Whether a stop came for the take in progress: commands behind it wait for its close.
    private var closing = false
    private var captureTimes = [Instant](repeating: Instant(microseconds: 0), count: 64)

    /// Opens the encoder (the first of `codecs` that opens) and starts recording
    /// frames into the ring; takes start with `start(at:)`. With `passThrough`, a
    /// source's compressed frames go into the takes as they come, without an encoder.
    /// `tuning` zooms and mirrors raw frames; `exports` runs exports (none: an
    /// export is refused); `onEvent` is called on the recording thread whenever
    /// there are new events to take.
    public init(
        source: FrameSource, ledger: TakeLedger, exports: TakeExports? = nil, codecs: [String], passThrough: Bool = false,
        preroll: Duration = .zero, rotation: Int = 0, tuning: FrameTuning? = nil, logger: Logger,
        onEvent: (@Sendable () -> Void)? = nil
    ) throws {
        self.source = source
        self.ledger = ledger
        self.exports = exports
        self.rotation = rotation
        self.tuning = tuning
        self.onEvent = onEvent
        self.log = logger
        router = TakeRouter(preroll: preroll)
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

    private var folder: TakeFolder { ledger.folder }

    public func start(at time: Instant) {
        queue.protect(from: time)
        post(.start(time))
    }

    public func stop(at time: Instant) { post(.stop(time)) }

    /// Deletes the last finished take (after a take in progress has closed).
    public func deleteLast() { post(.deleteLast) }

    /// Joins the finished takes into one file in `outputFolder`, once a take
    /// in progress has closed; the takes are deleted only when the result checks out.
    public func export(_ options: TakeExporter.Options, to outputFolder: String) {
        post(.export(options, outputFolder: outputFolder))
    }

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
        var tuningFailed = false
        while true {
            guard let next = queue.next() else { break }
            guard var frame = next.unpacked() else { continue }
            // A button's command reaches this thread a little after its event: a
            // frame is matched with commands once they have had time to arrive.
            MonotonicClock.sleep(until: frame.time + Self.commandDelay)
            takeCommands(ended: false)
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
            case .start(let time) where !ended:
                apply(router.start(at: time), current: nil)
            case .stop(let time) where !ended:
                if take != nil { closing = true }
                apply(router.stop(at: time), current: nil)
            case .start, .stop: break
            case .deleteLast, .export: deferred.append(command)
            }
        }
        runDeferred()
    }

    /// Deletes and exports, in order, once no take is closing: they act on the
    /// takes finished by then, the one that was closing included.
    private func runDeferred() {
        guard !closing else { return }
        while !deferred.isEmpty {
            switch deferred.removeFirst() {
            case .deleteLast: deleteLastTake()
            case .export(let options, let outputFolder): dispatchExport(options, to: outputFolder)
            case .start, .stop: break
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

    private func apply(_ outputs: [TakeRouter<EncodedPacket>.Output], current frame: Capture?) {
        for output in outputs {
            switch output {
            case .open(let firstFrame): open(firstFrame: firstFrame)
            case .write(let timed): write(timed, frame: frame)
            case .close:
                close(early: nil)
                closing = false
                runDeferred()
            }
        }
    }

    private func open(firstFrame: Instant) {
        let age = MonotonicClock.now().microseconds - firstFrame.microseconds
        let started = WallClock.microseconds() - max(0, age)
        do {
            try folder.reserveSpace()
        } catch {
            log.warning("\(error)")
        }
        // The take is listed before its file exists, so a crash at any point
        // leaves nothing unlisted: recovery measures the file, or drops the entry.
        let take = newTake(in: ledger.manifest, started: started)
        var created = false
        do {
            try ledger.change(undoIfUnsaved: true) { $0.takes.append(take) }
            let fd = try folder.create(take.file)
            created = true
            writer = try TakeWriter(
                fd: fd, named: take.file, in: folder.directory, parameters: encoder.parameters, rotation: rotation)
        } catch {
            router.abandon()
            if created { try? folder.directory.remove(take.file) }
            try? ledger.change { manifest in manifest.takes.removeAll { $0.id == take.id && $0.recording } }
            report(.startFailed("a take could not start: \(error)"))
            return
        }
        self.take = take
        firstPts = nil
        report(.opened(take, number: ledger.availableCount + 1, firstFrame: firstFrame))
    }

    /// A take starting at `started` with an id no take of `manifest` has and a
    /// file name no file in the folder has.
    private func newTake(in manifest: TakeManifest, started: Int64) -> TakeManifest.Take {
        var number = Int(manifest.nextID()) ?? 1
        while true {
            let id = TakeManifest.id(number: number)
            let name = TakeManifest.takeFileName(started: started, id: id, extension: encoder.fileExtension)
            if !folder.directory.contains(name) {
                return TakeManifest.Take(
                    id: id, file: name, thumbnail: nil, started: started, codec: encoder.parameters.codec, recording: true)
            }
            number += 1
        }
    }

    private func write(_ timed: TakeRouter<EncodedPacket>.Timed, frame: Capture?) {
        guard let writer, var take else { return }
        let isFirst = firstPts == nil
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
        lastPts = isFirst ? timed.packet.pts : max(lastPts, timed.packet.pts)
        take.frames += 1
        if take.thumbnail == nil, let capture = frame, packet.pts >= Int64(encoder.fps) / 20,
            let frame = encoder.picture(of: capture)
        {
            let name = TakeManifest.thumbnailName(for: take.file)
            do {
                try JPEGThumbnail.write(frame, named: name, in: folder.directory, mode: folder.access.fileMode)
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
        guard var take else { return }
        do {
            try writer?.finish()
        } catch {
            // The last fragment was not written: the take is what its complete fragments hold.
            if let kept = writer?.complete {
                take.frames = kept.packets
                if kept.packets == 0 { firstPts = nil }
                lastPts = (firstPts ?? 0) + kept.end - 1
            }
            report(.failed("\(error); the take keeps its first \(take.frames) frames"))
        }
        writer = nil
        if let first = firstPts {
            let slots = Int(lastPts - first + 1)
            take.duration = .microseconds(Int64(slots) * 1_000_000 / Int64(encoder.fps))
            take.dropped = max(0, slots - take.frames)
        }
        take.recording = false
        self.take = nil
        do {
            try ledger.change { manifest in
                if let slot = manifest.takes.lastIndex(where: { $0.id == take.id }) { manifest.takes[slot] = take }
            }
        } catch {
            report(.failed("the take list was not saved: \(error)"))
        }
        report(.closed(take, number: ledger.number(of: take.id) ?? ledger.availableCount, early: early))
    }

    /// Ends a take whose file could not be written: cut back to its complete
    /// fragments, which the manifest then describes. Nothing more is recorded
    /// until the next start.
    private func fail(_ take: TakeManifest.Take, writer: TakeWriter, _ error: MediaError) {
        var take = take
        let kept = writer.abandon()
        self.writer = nil
        take.frames = kept.packets
        firstPts = kept.packets > 0 ? firstPts : nil
        lastPts = (firstPts ?? 0) + kept.end - 1
        self.take = take
        router.abandon()
        closing = false
        let reason = error.isDiskFull ? "the disk is full" : error.reason
        close(early: "take \(writer.path) ended early, \(reason); it keeps its first \(kept.packets) frames")
        runDeferred()
    }

    private func deleteLastTake() {
        if let event = Self.deleteLast(in: ledger) { report(event) }
    }

    /// Deletes the last take not held by an export; nil when there is none.
    public static func deleteLast(in ledger: TakeLedger) -> Event? {
        guard let last = ledger.lastAvailable, let number = ledger.number(of: last.id) else { return nil }
        do {
            try ledger.folder.delete(last, from: ledger)
            return .deleted(last, number: number)
        } catch {
            return .failed("\(error)")
        }
    }
}

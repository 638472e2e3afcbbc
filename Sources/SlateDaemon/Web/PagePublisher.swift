import Logging
import SlateCore
import SlateMedia
import SlateSystem
import SlateWeb

/// `slate run --http`'s side of the page: it publishes the rig's status,
/// report lines and sound level to the status board, and runs the actions
/// clients ask for through the rig machine, as a button's handler would run.
final class PagePublisher {
    /// How often the status is made again without a dispatch (the disk fills as a take records).
    static let refresh = Duration.seconds(1)
    /// How often the audio meter is sent while anyone watches.
    static let meterInterval = Duration.milliseconds(100)

    let board: StatusBoard
    let server: RigServer
    private let preview: PreviewFeed
    private let gauges: RecorderGauges
    private let work: TakeFolder
    private var take: RigStatus.TakeInProgress?
    private var export: RigStatus.ExportEntry?
    private var disk: (at: Instant, free: Int64)?
    /// The bit rate measured on a take, by its id.
    private var bitRate: (id: String, bits: Int64)?
    /// When the status is next made without a dispatch.
    private var nextRefresh: Instant
    /// When the audio meter is next sent.
    private var nextMeter: Instant

    init(
        listen: HTTPListen, token: String, work: TakeFolder, preview: PreviewFeed, gauges: RecorderGauges, origin: Instant,
        wake: Wakeup, logger: Logger
    ) throws {
        board = StatusBoard(origin: origin) { wake.signal() }
        server = try RigServer(listen: listen, board: board, preview: preview, token: token, logger: logger)
        self.work = work
        self.preview = preview
        self.gauges = gauges
        nextRefresh = MonotonicClock.now()
        nextMeter = nextRefresh
    }

    /// When the status is next made (and the meter sent, while sound is
    /// recorded and anyone watches) without a dispatch.
    var nextDeadline: Instant {
        gauges.isMetering && board.clientCount > 0 ? min(nextRefresh, nextMeter) : nextRefresh
    }

    /// A report line went out: clients get it, and the take and export in progress follow it.
    func publish(_ line: ReportLine) {
        board.publish(line)
        guard case .take(let take) = line.fields else { return }
        switch take.event {
        case "started": self.take = take.take.map { RigStatus.TakeInProgress(number: $0, started: line.t) }
        case "exporting": export = RigStatus.ExportEntry(takes: take.takes ?? 0, done: take.done ?? 0)
        case "exported": export = nil
        case "failed" where take.message?.hasPrefix("export") == true: export = nil
        default: break
        }
    }

    /// The actions asked for since the last call: each is run through `rig`
    /// (the lines it gives at once are its answer) or refused with why.
    func runRequests(rig: RigDriver, profile: Profile, effects: EffectCarrier, at time: Instant) {
        for request in board.takeRequests() {
            switch ActionText.steps(request.action, in: profile) {
            case .failure(let error):
                request.answer(.refused(error.description))
            case .success(let steps):
                rig.handle(.request(ActionRequest(steps: steps, source: "http", time: time)))
                request.answer(.ran(effects.carryOut(rig.takeEffects())))
            }
        }
    }

    /// Makes the status from the rig's books and the take folder, and publishes it.
    func publishStatus(
        machine: RigMachine, takes: [TakeManifest.Take], sound: String?, exporting: Bool, origin: Instant, at now: Instant
    ) {
        let reading = gauges.reading
        if now >= nextMeter, let level = reading.level, board.clientCount > 0 {
            board.publish(meter: MeterReading(level))
            nextMeter = now + Self.meterInterval
        }
        nextRefresh = now + Self.refresh
        let book = machine.book
        if !book.isRecording { take = nil }
        take?.frames = reading.frames
        take?.dropped = reading.dropped
        if !exporting { export = nil }
        var camera: RigStatus.CameraEntry?
        if case .streaming(let facts) = book.camera {
            camera = RigStatus.CameraEntry(
                name: facts.name, position: book.position.rawValue, fps: book.fps, zoom: book.zoom, torch: book.torch,
                mode: reading.recording?.mode, encoder: reading.recording?.encoder)
        }
        var thumbnails: [Int: String] = [:]
        let entries = takes.enumerated().map { index, take in
            let number = index + 1
            if let thumbnail = take.thumbnail { thumbnails[number] = work.directory.file(thumbnail) }
            return RigStatus.TakeEntry(
                number: number, duration: take.duration.inSeconds(decimals: 3), frames: take.frames, dropped: take.dropped,
                thumbnail: take.thumbnail.map { _ in "/takes/\(number)/thumbnail.jpg?id=\(take.id)" })
        }
        let status = RigStatus(
            recording: book.isRecording, take: take, takes: entries, camera: camera, filter: book.filter.rawValue,
            controls: machine.deck.status, disk: diskEntry(takes: takes, at: now), export: export,
            sound: sound.map { RigStatus.SoundEntry(device: $0) },
            prompter: book.prompter.map { RigStatus.PrompterEntry($0, origin: origin) }, previewers: preview.watcherCount)
        board.publish(status, thumbnails: thumbnails)
    }

    /// The free space, read at most once a second, and the rate the last take was recorded at.
    private func diskEntry(takes: [TakeManifest.Take], at now: Instant) -> RigStatus.DiskEntry? {
        if disk == nil || now - disk!.at >= Self.refresh, let free = try? work.directory.freeBytes() { disk = (now, free) }
        guard let disk else { return nil }
        if let last = takes.last(where: { $0.duration >= .seconds(1) }), bitRate?.id != last.id,
            let size = work.directory.status(of: last.file)?.size
        {
            bitRate = (last.id, size * 8 * 1_000_000 / max(1, last.duration.microseconds))
        }
        return RigStatus.DiskEntry(freeBytes: disk.free, bitsPerSecond: bitRate?.bits)
    }

    /// Ends every client's stream, then the server.
    func stop() {
        board.close()
        preview.close()
        server.stop()
    }
}

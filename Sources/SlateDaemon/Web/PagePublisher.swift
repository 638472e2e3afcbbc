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
    /// How often the page is told the daemon's loop is alive while anyone
    /// watches: a page shows the rig lost after 2 s without a word from it.
    static let heartbeat = Duration.milliseconds(500)
    /// The descriptors `slate run` asks to be allowed (RLIMIT_NOFILE's soft
    /// limit, raised towards it as far as the hard limit allows): the page
    /// takes a quarter of them at most. Modest, as children inherit it.
    static let descriptorGoal = 4096

    let board: StatusBoard
    let server: RigServer
    private let preview: PreviewFeed
    private let gauges: RecorderGauges
    private let work: TakeFolder
    /// When the status is next made without a dispatch.
    private var nextRefresh: Instant
    /// When the audio meter is next sent.
    private var nextMeter: Instant
    /// When the next heartbeat is sent.
    private var nextBeat: Instant

    init(
        listen: HTTPListen, hosts: [String], token: String, pairing: PairingStore?, work: TakeFolder, preview: PreviewFeed,
        gauges: RecorderGauges,
        origin: Instant, wake: Wakeup, logger: Logger
    ) throws {
        board = StatusBoard(origin: origin) { wake.signal() }
        let descriptors = DescriptorLimit.raise(toward: Self.descriptorGoal) ?? 1024
        server = try RigServer(
            listen: listen, hosts: hosts, board: board, preview: preview, token: token, pairing: pairing,
            budgets: PageBudgets(descriptors: descriptors), logger: logger)
        self.work = work
        self.preview = preview
        self.gauges = gauges
        nextRefresh = MonotonicClock.now()
        nextMeter = nextRefresh
        nextBeat = nextRefresh
    }

    /// When the status is next made (and, while anyone watches, the
    /// heartbeat and the meter sent, the meter while sound is recorded) without a dispatch.
    var nextDeadline: Instant {
        guard board.clientCount > 0 else { return nextRefresh }
        return min(nextRefresh, nextBeat, gauges.isMetering ? nextMeter : nextBeat)
    }

    /// How many watch the framing preview.
    var previewers: Int { preview.watcherCount }

    /// A report line went out: clients get it.
    func publish(_ line: ReportLine) {
        board.publish(line)
    }

    /// The actions asked for since the last call: each is run through `rig`
    /// (the lines it gives at once are its answer) or refused with why; a
    /// saved script is read again by `readScript`.
    func runRequests(
        rig: RigDriver, profile: Profile, effects: EffectCarrier, at time: Instant,
        readScript: () -> StatusBoard.Answer
    ) {
        for request in board.takeRequests() {
            guard case .action(let action) = request.asked else {
                request.answer(readScript())
                continue
            }
            switch ActionText.steps(action, in: profile) {
            case .failure(let error):
                request.answer(.refused(error.description))
            case .success(let steps):
                rig.handle(.request(ActionRequest(steps: steps, source: "http", time: time)))
                request.answer(.ran(effects.carryOut(rig.takeEffects())))
            }
        }
    }

    /// Publishes the status (with the takes' thumbnails and files), and the heartbeat and
    /// the audio meter when they are due and anyone watches.
    func publish(_ status: RigStatus, reading: RecorderGauges.Reading, takes: [TakeManifest.Take], at now: Instant) {
        if now >= nextBeat, board.clientCount > 0 {
            board.publishHeartbeat()
            nextBeat = now + Self.heartbeat
        }
        if now >= nextMeter, let level = reading.level, board.clientCount > 0 {
            board.publish(meter: MeterReading(level))
            nextMeter = now + Self.meterInterval
        }
        nextRefresh = now + Self.refresh
        var thumbnails: [Int: String] = [:]
        var videos: [Int: String] = [:]
        for (index, take) in takes.enumerated() {
            if let thumbnail = take.thumbnail { thumbnails[index + 1] = work.directory.file(thumbnail) }
            videos[index + 1] = work.directory.file(take.file)
        }
        board.publish(status, thumbnails: thumbnails, videos: videos)
    }

    /// Ends every client's stream, then the server.
    func stop() {
        board.close()
        preview.close()
        server.stop()
    }
}

/// The decisions of a rig's place on an MQTT broker, apart from the
/// connection: which topics it follows, what it publishes, which commands it
/// runs and when (each id once, at its instant), which it refuses and how
/// many refusals a second it prints, which rigs it has seen, and how far apart
/// a synchronized take's first frames were. Each input returns the actions it
/// leads to; the worker (`RigNetwork`) carries them out in order. Time is an
/// input: every instant is on the monotonic clock, every `realtimeNs` is
/// CLOCK_REALTIME in nanoseconds at the same moment.
public struct RigNetworkMachine: Sendable {
    /// How long a synchronized take waits for every rig's first frame before its spread is printed.
    public static let spreadWait = Duration.seconds(3)
    /// How long the other rigs' answers to a command are printed.
    public static let answerWait = Duration.seconds(60)
    /// The most refusals printed and published a second; more are counted in the log.
    public static let refusalsPerSecond = 50

    /// What the worker does, in order.
    public enum Action: Sendable {
        case subscribe(String)
        case publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool)
        case report(Report)
        case log(LogLevel, String)
        /// Run a command's steps as a button's handler would, then say what
        /// came of it (`answered(_:effects:)`): lines printed meanwhile answer `id`.
        case run(ActionRequest, id: String)
    }

    /// How loud a log message is.
    public enum LogLevel: String, Sendable {
        case notice, warning
    }

    /// Where the rig stands with its broker.
    private enum Connection {
        /// Not connected yet, or again after a lost connection.
        case joining
        case joined
    }

    /// A command this rig sent, while its answers are awaited.
    private struct Sent {
        /// Whether it starts takes, whose first frames are gathered.
        var startsTakes: Bool
        var expected: Int
        var firstFrames: [String: Int64] = [:]
        /// When its spread is printed (synchronized), or its answers are no longer awaited.
        var deadline: Instant
    }

    public let spec: MQTTSpec
    private let topics: RigTopics
    /// This run's part of the ids of the commands it sends.
    private let session: String
    private var connection = Connection.joining
    private var inbox = CommandInbox()
    /// Other rigs seen on the broker, and how each stands.
    private var rigs: [String: RigStatus.RigTile] = [:]
    /// The other rigs seen on the broker, by name, as the tally page's tiles
    /// show them; none while this rig is off the broker (what it last heard may be stale).
    public var tiles: [RigStatus.RigTile] { isJoined ? rigs.keys.sorted().compactMap { rigs[$0] } : [] }
    /// Commands this rig sent, by id, while their answers are awaited.
    private var sent: [String: Sent] = [:]
    private var sentCount = 0
    /// The second refusals are counted in, how many were reported in it, and how many not.
    private var refusals: (since: Instant, reported: Int, unreported: Int) = (Instant(microseconds: 0), 0, 0)
    /// This rig's own `rigs` commands, waiting for their instant.
    private var ownCommands: Set<String> = []
    /// The command whose lines are being published, and the one whose take's first frame is awaited.
    private var answering: String?
    private var awaitingStart: String?
    private var lastState: [UInt8]?
    /// The camera's frame interval, as of the last poll.
    private var frame = FrameRate(30).frameLength
    /// The profile commands are read with, as of the last poll.
    private var profile: Profile
    /// Reports made while lines went out, printed at the next poll.
    private var ready: [Report] = []
    /// The instant report lines count their times from, as of the last poll.
    private var origin = Instant(microseconds: 0)

    /// A rig joining `spec`'s broker; `session` tells its command ids from an earlier run's.
    public init(spec: MQTTSpec, profile: Profile, session: String) {
        self.spec = spec
        self.profile = profile
        self.session = session
        topics = RigTopics(prefix: spec.topicPrefix)
    }

    /// The rig's last will: the broker keeps `{"online": false}` as its state when it goes.
    public var will: (topic: String, payload: [UInt8]) { (topics.topic(.state, of: spec.rig), RigState.offlinePayload) }

    /// When a command waiting is due, or a synchronized take's spread is; at once while reports wait.
    public var nextDeadline: Instant? {
        if !ready.isEmpty { return Instant(microseconds: 0) }
        return ([inbox.nextDeadline] + sent.values.map(\.deadline)).compactMap { $0 }.min()
    }

    // MARK: the connection

    /// The broker accepted the rig: it follows its commands and the other rigs, and publishes its state again.
    public mutating func connected() -> [Action] {
        connection = .joined
        lastState = nil
        let patterns = [
            topics.topic(.cmd, of: spec.rig), topics.everyRigCommands, topics.pattern(.state), topics.pattern(.events),
        ]
        return [.log(.notice, "joined \(spec.broker) as rig \(spec.rig)")] + patterns.map { .subscribe($0) }
    }

    public mutating func disconnected(reason: String) -> [Action] {
        defer { connection = .joining }
        if connection == .joined {
            return [.log(.warning, "lost \(spec.broker) (\(reason)): recording goes on here; reconnecting")]
        }
        return [.log(.warning, "cannot join \(spec.broker) (\(reason)): recording goes on here; trying again")]
    }

    /// Messages the worker did not keep since the last poll: too large, or too many waiting.
    public func dropped(oversized: Int, overflow: Int) -> [Action] {
        var actions: [Action] = []
        if oversized > 0 {
            actions.append(
                .log(.warning, "dropped \(oversized) message(s) from \(spec.broker) over \(RigTopics.payloadLimit) bytes"))
        }
        if overflow > 0 {
            actions.append(
                .log(
                    .warning,
                    "dropped \(overflow) message(s) from \(spec.broker): more than \(RigTopics.waitingLimit) were waiting"))
        }
        return actions
    }

    /// Says goodbye: the rig's state goes offline.
    public func goodbye() -> [Action] {
        [.publish(topic: will.topic, payload: will.payload, qos: 1, retain: true)]
    }

    // MARK: polls

    /// A poll begins: commands are read with `profile` and timed against
    /// frames at `fps`, report lines count their times from `origin`, and the
    /// reports made while lines went out are printed.
    public mutating func poll(fps: FrameRate, profile: Profile, origin: Instant) -> [Action] {
        frame = fps.frameLength
        self.profile = profile
        self.origin = origin
        return takeReady()
    }

    /// The commands due at `now`, to run in order; then `spreadsDue(at:)`.
    public mutating func due(at now: Instant) -> [Action] {
        var actions: [Action] = []
        for (command, due) in inbox.takeDue(at: now) {
            let origin: CommandSteps.Origin = ownCommands.remove(command.id) != nil ? .thisRig : .broker
            guard case .success(let steps) = CommandSteps.steps(command.action, from: origin, in: profile) else { continue }
            let source = command.from.map { $0 == spec.rig ? "rigs" : "rig \($0)" } ?? "mqtt"
            actions.append(.run(ActionRequest(steps: steps, source: source, time: due), id: command.id))
        }
        return actions
    }

    /// The spreads due at `now` (their rigs' first frames awaited long
    /// enough), by deadline, then by id; commands whose answers are no longer awaited are let go.
    public mutating func spreadsDue(at now: Instant) -> [Action] {
        let due = sent.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        var actions: [Action] = []
        for (id, entry) in due {
            sent[id] = nil
            if entry.startsTakes { actions.append(.report(spread(entry, at: now))) }
        }
        return actions
    }

    /// The worker runs the command `id`: lines printed from now answer it.
    public mutating func answering(_ id: String) { answering = id }

    /// The command `id` ran, with `effects`: a take it started is awaited, so that
    /// its `started` line answers the command too.
    public mutating func answered(_ id: String, effects: [RigEffect]) {
        if answering == id { answering = nil }
        if effects.contains(where: Self.startsTake) { awaitingStart = id }
    }

    // MARK: receiving

    /// A message arrived on `topic` at `now`: presence and answers become
    /// reports, commands are checked and wait for their instant.
    public mutating func received(topic: String, payload: [UInt8], at now: Instant, realtimeNs: Int64) -> [Action] {
        guard let (rig, kind) = topics.parse(topic) else { return [] }
        switch kind {
        case .cmd:
            let (command, arrival) = inbox.receive(
                payload: payload, now: now, realtimeNs: realtimeNs, frame: frame, profile: profile)
            guard case .refused(let reason) = arrival else { return [] }
            return refuse(command ?? RigCommandMessage(action: "?", id: ""), reason, now: now)
        case .state where rig != spec.rig && rig != RigTopics.everyRig:
            guard rigs[rig] != nil || rigs.count < RigTopics.rigLimit,
                let state = try? JSONLine.decode(RigState.self, from: payload)
            else { return [] }
            let wasOnline = rigs[rig]?.online
            rigs[rig] = RigStatus.RigTile(rig: rig, state: state)
            guard wasOnline != state.online else { return [] }
            return [.report(.rig(RigReport(time: now, rig: rig, event: state.online ? .online : .offline)))]
        case .events where rig != spec.rig:
            guard let event = try? JSONLine.decode(RigEventMessage.self, from: payload),
                let id = event.command, sent[id] != nil
            else { return [] }
            var actions: [Action] = [
                .report(.rig(RigReport(time: now, rig: rig, event: .line(text: event.text, line: event.line))))
            ]
            if let line = event.line { firstFrame(of: line, rig: rig, command: id, now: now) }
            actions += takeReady()
            return actions
        default:
            return []
        }
    }

    /// Reports a command not run; its sender, id and action are shown only
    /// as far as they are well formed and short.
    private mutating func refuse(_ command: RigCommandMessage, _ reason: String, now: Instant) -> [Action] {
        var actions: [Action] = []
        if now - refusals.since >= .seconds(1) {
            if refusals.unreported > 0 {
                actions.append(
                    .log(
                        .warning,
                        "refused \(refusals.unreported) more command(s) from \(spec.broker) without printing them (at most \(Self.refusalsPerSecond) a second)"
                    ))
            }
            refusals = (now, 0, 0)
        }
        guard refusals.reported < Self.refusalsPerSecond else {
            refusals.unreported += 1
            return actions
        }
        refusals.reported += 1
        let sender = command.from.flatMap { MQTTSpec.rigNameProblem($0) == nil ? $0 : nil } ?? "mqtt"
        let action = command.shownAction
        let report = Report.rig(RigReport(time: now, rig: sender, event: .refused(action: action, reason: reason)))
        actions.append(.report(report))
        let line = ReportLine(report, origin: origin)
        let id = command.problem == nil ? command.id : nil
        actions += publishEvent(RigEventMessage(rig: spec.rig, command: id, text: "refused \(action): \(reason)", line: line))
        return actions
    }

    // MARK: sending

    /// Sends a `rigs` or `rig` command asked for at `time` (`timeNs` on
    /// CLOCK_REALTIME); a `rigs` command also runs here, at the same instant (or
    /// is refused here, when this rig's profile does not know its action).
    /// `now` is when it is sent. Returns the report saying so, and what to publish.
    public mutating func send(
        _ command: RigsCommand, at time: Instant, timeNs: Int64, now: Instant, realtimeNs: Int64
    ) -> (report: Report, actions: [Action]) {
        sentCount += 1
        let id = "\(spec.rig)-\(session)-\(sentCount)"
        let atNs = command.isSynchronized ? timeNs + spec.startDelay.microseconds * 1000 : nil
        let message = RigCommandMessage(action: command.text, at: atNs, id: id, from: spec.rig)
        let payload = Array(JSONLine.encode(message).utf8)
        let joined = connection == .joined
        var actions: [Action] = []
        let target: String
        var expected = 1
        switch command.target {
        case .every:
            target = "every rig"
            expected = 1 + rigs.values.filter(\.online).count
            if joined { actions.append(.publish(topic: topics.everyRigCommands, payload: payload, qos: 1, retain: false)) }
            runHere(message, at: time, now: now, realtimeNs: realtimeNs)
        case .rig(let name) where name == spec.rig:
            target = "this rig"
            runHere(message, at: time, now: now, realtimeNs: realtimeNs)
        case .rig(let name):
            target = "rig \(name)"
            if joined { actions.append(.publish(topic: topics.topic(.cmd, of: name), payload: payload, qos: 1, retain: false)) }
        }
        guard joined || command.target == .rig(spec.rig) else {
            let reason =
                "the broker \(spec.broker) is not connected: " + (command.target == .every ? "run on this rig only" : "not sent")
            return (.rig(RigReport(time: time, rig: spec.rig, event: .refused(action: command.text, reason: reason))), actions)
        }
        sent[id] = Sent(
            startsTakes: command.startsTakes, expected: expected,
            deadline: time + (command.startsTakes ? spec.startDelay + Self.spreadWait : Self.answerWait))
        return (
            .rig(RigReport(time: time, rig: spec.rig, event: .sent(action: command.text, target: target, atNs: atNs))), actions
        )
    }

    /// A command of this rig's for itself: it waits for its instant, or is refused with why.
    private mutating func runHere(_ message: RigCommandMessage, at time: Instant, now: Instant, realtimeNs: Int64) {
        var problem: String?
        if case .failure(let error) = CommandSteps.steps(message.action, from: .thisRig, in: profile) {
            problem = error.description
        }
        switch inbox.receive(message, now: now, realtimeNs: realtimeNs, frame: frame, problem: problem) {
        case .refused(let reason):
            ready.append(.rig(RigReport(time: time, rig: spec.rig, event: .refused(action: message.action, reason: reason))))
        case .scheduled: ownCommands.insert(message.id)
        case .duplicate: break
        }
    }

    // MARK: publishing

    /// A report line went out here: it is published on the events topic, with
    /// the command it answers; a synchronized take's first frame is counted.
    public mutating func lineOut(_ report: Report, _ line: ReportLine, text: String, at now: Instant) -> [Action] {
        var command = answering
        if command == nil, case .take(let take) = line.fields, take.event == "started" || take.event == "failed",
            let awaited = awaitingStart
        {
            command = awaited
            awaitingStart = nil
        }
        if case .rig = report { return [] }
        if let command { firstFrame(of: line, rig: spec.rig, command: command, now: now) }
        return publishEvent(RigEventMessage(rig: spec.rig, command: command, text: text, line: line))
    }

    /// Whether the broker has the rig: only then is its state worth making.
    public var isJoined: Bool { connection == .joined }

    /// The rig's state as `payload`: published (retained) when it changed.
    public mutating func state(_ payload: [UInt8]) -> [Action] {
        guard connection == .joined, payload != lastState else { return [] }
        lastState = payload
        return [.publish(topic: topics.topic(.state, of: spec.rig), payload: payload, qos: 1, retain: true)]
    }

    /// Counts a rig's first frame of a synchronized take; with every rig's, its spread is ready.
    private mutating func firstFrame(of line: ReportLine, rig: String, command: String, now: Instant) {
        guard case .take(let take) = line.fields, take.event == "started", let realtime = take.realtimeNs,
            var entry = sent[command], entry.startsTakes
        else { return }
        entry.firstFrames[rig] = realtime
        sent[command] = entry
        guard entry.firstFrames.count >= entry.expected else { return }
        sent[command] = nil
        ready.append(spread(entry, at: now))
    }

    private mutating func takeReady() -> [Action] {
        defer { ready.removeAll() }
        return ready.map { .report($0) }
    }

    private func spread(_ entry: Sent, at now: Instant) -> Report {
        .rig(RigReport(time: now, rig: spec.rig, event: .spread(entry.firstFrames, expected: entry.expected)))
    }

    private func publishEvent(_ event: RigEventMessage) -> [Action] {
        guard connection == .joined else { return [] }
        return [
            .publish(
                topic: topics.topic(.events, of: spec.rig), payload: Array(JSONLine.encode(event).utf8), qos: 0, retain: false)
        ]
    }

    private static func startsTake(_ effect: RigEffect) -> Bool {
        if case .take(.start, _) = effect { true } else { false }
    }

}

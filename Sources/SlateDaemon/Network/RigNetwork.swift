import FoundationEssentials
import Logging
import SlateCore
import SlateNetwork
import SlateSystem
import Synchronization

/// `slate run`'s place among the rigs on one MQTT broker. libmosquitto's own
/// thread holds the connection (it reconnects with backoff and never blocks
/// the input loop); what arrives waits here until the loop's next tick. The
/// rig publishes its state (retained, with a last will that says it is
/// offline) and each report line, runs the commands sent to it, once each and
/// at their instant, and sends `rigs` and `rig` commands, printing the other
/// rigs' answers and how far apart a synchronized take's first frames were.
final class RigNetwork {
    /// How long a synchronized take waits for every rig's first frame before its spread is printed.
    static let spreadWait = Duration.seconds(3)

    /// How long the other rigs' answers to a command are printed.
    static let answerWait = Duration.seconds(60)

    /// The most refusals printed and published a second; more are counted in the log.
    static let refusalsPerSecond = 50

    private struct Sent {
        /// Whether it starts takes, whose first frames are gathered.
        var startsTakes: Bool
        var expected: Int
        var firstFrames: [String: Int64] = [:]
        /// When its spread is printed (synchronized), or its answers are no longer awaited.
        var deadline: Instant
    }

    let spec: MQTTSpec
    private let topics: RigTopics
    private let link: MQTTLink
    /// What libmosquitto's thread delivered, until the loop takes it: at
    /// most `RigTopics.waitingLimit` messages, each of at most
    /// `RigTopics.payloadLimit` bytes; the others are counted and dropped.
    private final class Arrivals: Sendable {
        let events = Mutex<[MQTTLink.Event]>([])
        let dropped = Mutex<(oversized: Int, overflow: Int)>((0, 0))

        /// Keeps `event` unless it is too large or too many wait.
        func take(_ event: MQTTLink.Event) {
            if case .oversized = event {
                dropped.withLock { $0.oversized += 1 }
                return
            }
            let kept = events.withLock { events in
                guard events.count < RigTopics.waitingLimit else { return false }
                events.append(event)
                return true
            }
            if !kept { dropped.withLock { $0.overflow += 1 } }
        }
    }

    private let arrivals = Arrivals()
    private let log: Logger
    private var connected = false
    private var inbox = CommandInbox()
    /// Other rigs seen on the broker, and whether each is online.
    private var rigs: [String: Bool] = [:]
    /// Commands this rig sent, by id, while their answers are awaited.
    private var sent: [String: Sent] = [:]
    private var sentCount = 0
    private let session = SecretFile.randomHex(bytes: 3)
    /// The second refusals are counted in, how many were reported in it, and how many not.
    private var refusals: (since: Instant, reported: Int, unreported: Int) = (Instant(microseconds: 0), 0, 0)
    /// This rig's own `rigs` commands, waiting for their instant.
    private var ownCommands: Set<String> = []
    /// The command whose lines are being published, and the one whose take's first frame is awaited.
    private var answering: String?
    private var awaitingStart: String?
    private var lastState: [UInt8]?
    /// The camera's frame interval, as of the last poll.
    private var frame = RigNetwork.frameInterval(fps: 30)
    /// The profile commands are read with, as of the last poll.
    private var profile: Profile
    /// Reports made while lines went out, printed at the next poll.
    private var ready: [Report] = []

    /// Connects in the background; `wake` is signalled when something arrives.
    init(spec: MQTTSpec, profile: Profile, password: String?, wake: Wakeup, logger: Logger) throws(MQTTError) {
        self.spec = spec
        self.profile = profile
        topics = RigTopics(prefix: spec.topicPrefix)
        log = logger
        let will = MQTTLink.Message(
            topic: topics.topic(.state, of: spec.rig), payload: RigState.offlinePayload, qos: 1, retain: true)
        let settings = MQTTLink.Settings(
            host: spec.broker.host, port: spec.broker.port, clientID: "slate-\(spec.rig)", username: spec.username,
            password: password, caFile: spec.caFile, systemCertificates: spec.broker.tls && spec.caFile == nil,
            keepAlive: Int(max(1, spec.keepAlive.microseconds / 1_000_000)), will: will,
            payloadLimit: RigTopics.payloadLimit)
        link = try MQTTLink(settings) { [arrivals] event in
            arrivals.take(event)
            wake.signal()
        }
        log.info("joining \(spec.broker) as rig \(spec.rig)")
    }

    /// When a command waiting is due, or a synchronized take's spread is.
    var nextDeadline: Instant? {
        if !ready.isEmpty { return Instant(microseconds: 0) }
        return ([inbox.nextDeadline] + sent.values.map(\.deadline)).compactMap { $0 }.min()
    }

    /// Says goodbye: the broker keeps `{"online": false}` as the rig's state.
    func stop() {
        publish(topics.topic(.state, of: spec.rig), RigState.offlinePayload, qos: 1, retain: true)
        link.stop(sayingGoodbye: true)
    }

    // MARK: sending

    /// Sends a `rigs` or `rig` command asked for at `time`; a `rigs` command
    /// also runs here, at the same instant (or is refused here, when this
    /// rig's profile does not know its action). Returns the line saying so.
    func send(_ command: RigsCommand, at time: Instant) -> Report {
        sentCount += 1
        let id = "\(spec.rig)-\(session)-\(sentCount)"
        let atNs = command.isSynchronized
            ? (MonotonicClock.wallClock(of: time).microseconds + spec.startDelay.microseconds) * 1000 : nil
        let message = RigCommandMessage(action: command.text, at: atNs, id: id, from: spec.rig)
        let target: String
        var expected = 1
        switch command.target {
        case .every:
            target = "every rig"
            expected = 1 + rigs.values.filter { $0 }.count
            if connected { publish(topics.everyRigCommands, JSONLine.encode(message), qos: 1) }
            runHere(message, at: time)
        case .rig(let name) where name == spec.rig:
            target = "this rig"
            runHere(message, at: time)
        case .rig(let name):
            target = "rig \(name)"
            if connected { publish(topics.topic(.cmd, of: name), JSONLine.encode(message), qos: 1) }
        }
        guard connected || command.target == .rig(spec.rig) else {
            let reason = "the broker \(spec.broker) is not connected: "
                + (command.target == .every ? "run on this rig only" : "not sent")
            return .rig(RigReport(time: time, rig: spec.rig, event: .refused(action: command.text, reason: reason)))
        }
        sent[id] = Sent(
            startsTakes: command.startsTakes, expected: expected,
            deadline: time + (command.startsTakes ? spec.startDelay + Self.spreadWait : Self.answerWait))
        return .rig(RigReport(time: time, rig: spec.rig, event: .sent(action: command.text, target: target, atNs: atNs)))
    }

    /// A command of this rig's for itself: it waits for its instant, or is refused with why.
    private func runHere(_ message: RigCommandMessage, at time: Instant) {
        var problem: String?
        if case .failure(let error) = CommandSteps.steps(message.action, from: .thisRig, in: profile) {
            problem = error.description
        }
        switch arrive(message, now: MonotonicClock.now(), problem: problem) {
        case .refused(let reason):
            ready.append(.rig(RigReport(time: time, rig: spec.rig, event: .refused(action: message.action, reason: reason))))
        case .scheduled: ownCommands.insert(message.id)
        case .duplicate: break
        }
    }

    // MARK: receiving

    /// Takes what arrived from the broker: presence and answers become
    /// reports, commands are checked and wait for their instant. Then runs
    /// the commands due through `rig`, and reports spreads that are due.
    func poll(rig: RigDriver, profile: Profile, effects: EffectCarrier, at now: Instant) {
        let events = arrivals.events.withLock { events in
            defer { events.removeAll() }
            return events
        }
        frame = Self.frameInterval(fps: rig.machine.book.fps)
        self.profile = profile
        printReady(effects)
        reportDropped()
        for event in events {
            switch event {
            case .connected:
                connected = true
                lastState = nil
                log.notice("joined \(spec.broker) as rig \(spec.rig)")
                for pattern in [topics.topic(.cmd, of: spec.rig), topics.everyRigCommands, topics.pattern(.state), topics.pattern(.events)] {
                    do {
                        try link.subscribe(pattern, qos: 1)
                    } catch {
                        log.warning("\(error)")
                    }
                }
            case .disconnected(let reason):
                if connected {
                    log.warning("lost \(spec.broker) (\(reason)): recording goes on here; reconnecting")
                } else {
                    log.warning("cannot join \(spec.broker) (\(reason)): recording goes on here; trying again")
                }
                connected = false
            case .message(let message):
                receive(message, effects: effects, now: now)
            case .oversized:
                break
            }
        }
        for (command, due) in inbox.takeDue(at: now) {
            run(command, due: due, rig: rig, effects: effects)
        }
        for (id, entry) in sent where entry.deadline <= now {
            sent[id] = nil
            if entry.startsTakes {
                effects.carryOut([.report(spread(entry, at: now))])
            }
        }
    }

    private func receive(_ message: MQTTLink.Message, effects: EffectCarrier, now: Instant) {
        guard let (rig, kind) = topics.parse(message.topic) else { return }
        switch kind {
        case .cmd:
            let (command, arrival) = inbox.receive(
                payload: message.payload, now: now, realtimeNs: realtimeNs(at: now), frame: frame, profile: profile)
            if case .refused(let reason) = arrival {
                refuse(command ?? RigCommandMessage(action: "?", id: ""), reason, effects: effects, now: now)
            }
        case .state where rig != spec.rig:
            guard rigs[rig] != nil || rigs.count < RigTopics.rigLimit,
                let state = try? JSONDecoder().decode(RigState.self, from: Data(message.payload))
            else { return }
            if rigs[rig] != state.online {
                rigs[rig] = state.online
                effects.carryOut([.report(.rig(RigReport(time: now, rig: rig, event: state.online ? .online : .offline)))])
            }
        case .events where rig != spec.rig:
            guard let event = try? JSONDecoder().decode(RigEventMessage.self, from: Data(message.payload)),
                let id = event.command, sent[id] != nil
            else { return }
            effects.carryOut([.report(.rig(RigReport(time: now, rig: rig, event: .line(text: event.text, line: event.line))))])
            if let line = event.line { firstFrame(of: line, rig: rig, command: id, now: now) }
            printReady(effects)
        default:
            break
        }
    }

    /// A command reached this rig: it waits for its instant, or is refused.
    private func arrive(_ command: RigCommandMessage, now: Instant, problem: String? = nil) -> CommandInbox.Arrival {
        inbox.receive(command, now: now, realtimeNs: realtimeNs(at: now), frame: frame, problem: problem)
    }

    /// CLOCK_REALTIME at the monotonic instant `now`, in nanoseconds.
    private func realtimeNs(at now: Instant) -> Int64 { MonotonicClock.wallClock(of: now).microseconds * 1000 }

    /// Runs a command that is due, as a button's handler would, at its instant.
    private func run(_ command: RigCommandMessage, due: Instant, rig: RigDriver, effects: EffectCarrier) {
        let origin: CommandSteps.Origin = ownCommands.remove(command.id) != nil ? .thisRig : .broker
        guard case .success(let steps) = CommandSteps.steps(command.action, from: origin, in: profile) else { return }
        let source = command.from.map { $0 == spec.rig ? "rigs" : "rig \($0)" } ?? "mqtt"
        answering = command.id
        defer { answering = nil }
        rig.handle(.request(ActionRequest(steps: steps, source: source, time: due)))
        let effectsDue = rig.takeEffects()
        if effectsDue.contains(where: Self.startsTake) { awaitingStart = command.id }
        effects.carryOut(effectsDue)
    }

    /// Reports a command not run; its sender, id and action are shown only
    /// as far as they are well formed and short.
    private func refuse(_ command: RigCommandMessage, _ reason: String, effects: EffectCarrier, now: Instant) {
        if now - refusals.since >= .seconds(1) {
            if refusals.unreported > 0 {
                log.warning("refused \(refusals.unreported) more command(s) from \(spec.broker) without printing them (at most \(Self.refusalsPerSecond) a second)")
            }
            refusals = (now, 0, 0)
        }
        guard refusals.reported < Self.refusalsPerSecond else {
            refusals.unreported += 1
            return
        }
        refusals.reported += 1
        let sender = command.from.flatMap { MQTTSpec.rigNameProblem($0) == nil ? $0 : nil } ?? "mqtt"
        let action = command.shownAction
        let report = Report.rig(RigReport(time: now, rig: sender, event: .refused(action: action, reason: reason)))
        effects.carryOut([.report(report)])
        let line = ReportLine(report, origin: effects.printer.format.origin)
        let id = command.problem == nil ? command.id : nil
        publishEvent(RigEventMessage(rig: spec.rig, command: id, text: "refused \(action): \(reason)", line: line))
    }

    /// Says once a poll how many messages from the broker were dropped since the last.
    private func reportDropped() {
        let dropped = arrivals.dropped.withLock { counts in
            defer { counts = (0, 0) }
            return counts
        }
        if dropped.oversized > 0 {
            log.warning("dropped \(dropped.oversized) message(s) from \(spec.broker) over \(RigTopics.payloadLimit) bytes")
        }
        if dropped.overflow > 0 {
            log.warning("dropped \(dropped.overflow) message(s) from \(spec.broker): more than \(RigTopics.waitingLimit) were waiting")
        }
    }

    private static func startsTake(_ effect: RigEffect) -> Bool {
        if case .take(.start, _) = effect { true } else { false }
    }

    /// A frame's length at `fps`.
    static func frameInterval(fps: Int) -> Duration { .microseconds(1_000_000 / Int64(max(1, fps))) }

    // MARK: publishing

    /// A report line went out here: it is published on the events topic, with
    /// the command it answers; a synchronized take's first frame is counted.
    func publish(_ report: Report, _ line: ReportLine, text: String, at now: Instant) {
        var command = answering
        if command == nil, case .take(let take) = line.fields, take.event == "started" || take.event == "failed",
            let awaited = awaitingStart
        {
            command = awaited
            awaitingStart = nil
        }
        if case .rig = report { return }
        if let command { firstFrame(of: line, rig: spec.rig, command: command, now: now) }
        publishEvent(RigEventMessage(rig: spec.rig, command: command, text: text, line: line))
    }

    /// The rig's state, published (retained) when it changed.
    func publish(_ status: RigStatus) {
        guard connected else { return }
        let payload = Array(JSONLine.encode(RigState(status, clock: RealtimeClock.sync(), version: SlateVersion.current)).utf8)
        guard payload != lastState else { return }
        lastState = payload
        publish(topics.topic(.state, of: spec.rig), payload, qos: 1, retain: true)
    }

    /// Counts a rig's first frame of a synchronized take; with every rig's, its spread is ready.
    private func firstFrame(of line: ReportLine, rig: String, command: String, now: Instant) {
        guard case .take(let take) = line.fields, take.event == "started", let realtime = take.realtimeNs,
            var entry = sent[command], entry.startsTakes
        else { return }
        entry.firstFrames[rig] = realtime
        sent[command] = entry
        guard entry.firstFrames.count >= entry.expected else { return }
        sent[command] = nil
        ready.append(spread(entry, at: now))
    }

    /// Prints the reports made while lines went out.
    private func printReady(_ effects: EffectCarrier) {
        guard !ready.isEmpty else { return }
        effects.carryOut(ready.map { .report($0) })
        ready.removeAll()
    }

    private func spread(_ entry: Sent, at now: Instant) -> Report {
        .rig(RigReport(time: now, rig: spec.rig, event: .spread(entry.firstFrames, expected: entry.expected)))
    }

    private func publishEvent(_ event: RigEventMessage) {
        guard connected else { return }
        publish(topics.topic(.events, of: spec.rig), Array(JSONLine.encode(event).utf8), qos: 0)
    }

    private func publish(_ topic: String, _ text: String, qos: Int32) {
        publish(topic, Array(text.utf8), qos: qos)
    }

    private func publish(_ topic: String, _ payload: [UInt8], qos: Int32, retain: Bool = false) {
        do {
            try link.publish(MQTTLink.Message(topic: topic, payload: payload, qos: qos, retain: retain))
        } catch {
            log.warning("\(error)")
        }
    }
}

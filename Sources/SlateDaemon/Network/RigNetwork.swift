import Logging
import SlateCore
import SlateNetwork
import SlateSystem
import Synchronization

/// `slate run`'s place among the rigs on one MQTT broker: the I/O of a
/// `RigNetworkMachine`, which makes every decision. libmosquitto's own thread
/// holds the connection (it reconnects with backoff and never blocks the
/// input loop); what arrives waits here until the loop's next tick.
final class RigNetwork {
    let spec: MQTTSpec
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
    private var machine: RigNetworkMachine
    /// Where this rig's takes are, `HOST:FOLDER`, in its state.
    private let work: String?

    /// Connects in the background; `wake` is signalled when something arrives.
    init(
        spec: MQTTSpec, profile: Profile, password: String?, work: String?, wake: Wakeup, logger: Logger
    ) throws(MQTTError) {
        self.work = work
        self.spec = spec
        log = logger
        machine = RigNetworkMachine(spec: spec, profile: profile, session: SecretFile.randomHex(bytes: 3))
        let will = machine.will
        let settings = MQTTLink.Settings(
            host: spec.broker.host, port: spec.broker.port, clientID: "slate-\(spec.rig)", username: spec.username,
            password: password, caFile: spec.caFile, systemCertificates: spec.broker.tls && spec.caFile == nil,
            keepAlive: Int(max(1, spec.keepAlive.microseconds / 1_000_000)),
            will: MQTTLink.Message(topic: will.topic, payload: will.payload, qos: 1, retain: true),
            payloadLimit: RigTopics.payloadLimit)
        link = try MQTTLink(settings) { [arrivals] event in
            arrivals.take(event)
            wake.signal()
        }
        log.info("joining \(spec.broker) as rig \(spec.rig)")
    }

    /// When a command waiting is due, or a synchronized take's spread is.
    var nextDeadline: Instant? { machine.nextDeadline }

    /// The other rigs seen on the broker.
    var tiles: [RigStatus.RigTile] { machine.tiles }

    /// Says goodbye: the broker keeps `{"online": false}` as the rig's state.
    func stop() {
        carryOut(machine.goodbye(), effects: nil)
        link.stop(sayingGoodbye: true)
    }

    /// Sends a `rigs` or `rig` command asked for at `time`; a `rigs` command
    /// also runs here, at the same instant. Returns the line saying so.
    func send(_ command: RigsCommand, at time: Instant, effects: EffectCarrier) -> Report {
        let now = effects.clock.now()
        let (report, actions) = machine.send(
            command, at: time, timeNs: Self.realtimeNs(at: time, on: effects.clock), now: now,
            realtimeNs: Self.realtimeNs(at: now, on: effects.clock))
        carryOut(actions, effects: effects)
        return report
    }

    /// Takes what arrived from the broker, then runs the commands due through
    /// `rig`, then reports the spreads that are due.
    func poll(rig: RigDriver, profile: Profile, effects: EffectCarrier, at now: Instant) {
        let events = arrivals.events.withLock { events in
            defer { events.removeAll() }
            return events
        }
        let dropped = arrivals.dropped.withLock { counts in
            defer { counts = (0, 0) }
            return counts
        }
        carryOut(
            machine.poll(fps: rig.machine.book.streamRate, profile: profile, origin: effects.printer.format.origin),
            effects: effects)
        carryOut(machine.dropped(oversized: dropped.oversized, overflow: dropped.overflow), effects: effects)
        for event in events {
            let actions: [RigNetworkMachine.Action]
            switch event {
            case .connected: actions = machine.connected()
            case .disconnected(let reason): actions = machine.disconnected(reason: reason)
            case .message(let message):
                actions = machine.received(
                    topic: message.topic, payload: message.payload, at: now,
                    realtimeNs: Self.realtimeNs(at: now, on: effects.clock))
            case .oversized: actions = []
            }
            carryOut(actions, effects: effects)
        }
        carryOut(machine.due(at: now), effects: effects, rig: rig)
        carryOut(machine.spreadsDue(at: now), effects: effects)
    }

    /// A report line went out here: it is published on the events topic.
    func publish(_ report: Report, _ line: ReportLine, text: String, at now: Instant) {
        carryOut(machine.lineOut(report, line, text: text, at: now), effects: nil)
    }

    /// The rig's state, published (retained) when it changed.
    func publish(_ status: RigStatus) {
        guard machine.isJoined else { return }
        let state = RigState(status, work: work, clock: RealtimeClock.sync(), version: SlateVersion.current)
        let payload = Array(JSONLine.encode(state).utf8)
        carryOut(machine.state(payload), effects: nil)
    }

    /// The wall clock at `instant` on `clock`, in nanoseconds since 1970.
    private static func realtimeNs(at instant: Instant, on clock: any RigClock) -> Int64 {
        clock.wallClock(of: instant).microseconds * 1000
    }

    /// Carries out the machine's actions in order: reports through `effects`,
    /// commands through `rig`.
    private func carryOut(_ actions: [RigNetworkMachine.Action], effects: EffectCarrier?, rig: RigDriver? = nil) {
        for action in actions {
            switch action {
            case .subscribe(let pattern):
                do {
                    try link.subscribe(pattern, qos: 1)
                } catch {
                    log.warning("\(error)")
                }
            case .publish(let topic, let payload, let qos, let retain):
                do {
                    try link.publish(MQTTLink.Message(topic: topic, payload: payload, qos: qos, retain: retain))
                } catch {
                    log.warning("\(error)")
                }
            case .report(let report): effects?.carryOut([.report(report)])
            case .log(.notice, let message): log.notice("\(message)")
            case .log(.warning, let message): log.warning("\(message)")
            case .run(let request, let id):
                guard let rig, let effects else { continue }
                machine.answering(id)
                rig.handle(.request(request))
                let due = rig.takeEffects()
                effects.carryOut(due)
                machine.answered(id, effects: due)
            }
        }
    }
}

import ArgumentParser
import SlateCore
import SlateDaemon
import SlateNetwork
import SlateSystem
import Synchronization

/// `slate rigs`: the rigs a broker has seen, online or not, with the state each keeps there.
struct Rigs: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rigs on an MQTT broker, online or not, with their state.",
        discussion: """
            The broker, user, password file, CA file and topic prefix come from the profile's mqtt section; \
            the options override them. A rig's clock is as the kernel holds it for the NTP or PTP daemon \
            that keeps it (chronyd, phc2sys): synchronized or not, and its estimated error.
            """)

    @Option(help: "A profile whose mqtt section names the broker.")
    var profile: String?

    @Option(help: "The broker: mqtt://HOST[:PORT] or mqtts://HOST[:PORT].")
    var broker: String?

    @Option(help: "The broker user.")
    var username: String?

    @Option(help: "A file only its owner can read (0600) holding the broker password.")
    var passwordFile: String?

    @Option(help: "The CA certificate of an mqtts:// broker.")
    var caFile: String?

    @Option(help: "The first level of the rigs' topics.")
    var topicPrefix: String?

    @Option(help: "How long to listen for the rigs' states, in seconds.")
    var seconds: Double = 1

    @Flag(help: "One JSON object per line.")
    var json = false

    /// How long the broker is waited for.
    static let connectWait = Duration.seconds(5)

    /// One rig in `--json` output.
    struct Line: Codable {
        var rig: String
        var state: RigState
    }

    func run() throws {
        let spec = try self.spec()
        let password: String?
        do {
            password = try (passwordFile ?? spec.passwordFile).map { try SecretFile.load(UserPath.expand($0)) }
        } catch {
            OutputStream.writeError("slate rigs: \(error)")
            throw ExitCode.failure
        }
        let topics = RigTopics(prefix: spec.topicPrefix)
        let states = Mutex<[String: RigState]>([:])
        let connection = Mutex<(connected: Bool, failure: String?)>((false, nil))
        let link: MQTTLink
        do {
            link = try MQTTLink(
                MQTTLink.Settings(
                    host: spec.broker.host, port: spec.broker.port, clientID: "slate-rigs-\(SecretFile.randomHex(bytes: 4))",
                    username: spec.username, password: password, caFile: spec.caFile,
                    systemCertificates: spec.broker.tls && spec.caFile == nil, keepAlive: 5,
                    payloadLimit: RigTopics.payloadLimit)
            ) { event in
                switch event {
                case .connected: connection.withLock { $0 = (true, nil) }
                case .disconnected(let reason): connection.withLock { $0 = (false, reason) }
                case .message(let message):
                    guard let (rig, kind) = topics.parse(message.topic), kind == .state,
                        let state = try? JSONLine.decode(RigState.self, from: message.payload)
                    else { return }
                    // As a rig does: at most RigTopics.rigLimit rigs are kept, the first seen.
                    states.withLock { states in
                        if states[rig] != nil || states.count < RigTopics.rigLimit { states[rig] = state }
                    }
                case .oversized:
                    break
                }
            }
        } catch {
            OutputStream.writeError("slate rigs: \(error)")
            throw ExitCode.failure
        }
        defer { link.stop() }
        let listen = Duration.microseconds(Int64(max(0.1, seconds) * 1_000_000))
        let giveUp = MonotonicClock.now() + Self.connectWait
        while !connection.withLock({ $0.connected }), MonotonicClock.now() < giveUp {
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20))
        }
        do {
            guard connection.withLock({ $0.connected }) else {
                throw MQTTError("reach \(spec.broker)", reason: connection.withLock { $0.failure } ?? "no answer")
            }
            try link.subscribe(topics.pattern(.state), qos: 1)
        } catch {
            OutputStream.writeError("slate rigs: \(error)")
            throw ExitCode.failure
        }
        MonotonicClock.sleep(until: MonotonicClock.now() + listen)
        let seen = states.withLock { $0 }
        let output = OutputStream()
        for (rig, state) in seen.sorted(by: { $0.key < $1.key }) {
            output.writeLine(json ? JSONLine.encode(Line(rig: rig, state: state)) : TerminalText.safe(state.text(rig: rig)))
        }
        if seen.isEmpty && !json { output.writeLine("no rigs on \(spec.broker) under \(spec.topicPrefix)/") }
        output.flush()
    }

    /// The broker and credentials: the options, else the profile's mqtt section.
    private func spec() throws -> MQTTSpec {
        var spec = try profile.map(ProfileSource.loadOrExit)?.mqtt
        if let broker {
            switch BrokerAddress.parse(broker) {
            case .success(let address): spec = MQTTSpec(broker: address, rig: spec?.rig ?? "rigs", username: spec?.username)
            case .failure(let error):
                OutputStream.writeError("slate rigs: --broker: \(error)")
                throw Slate.badInput
            }
        }
        guard var spec else {
            OutputStream.writeError(
                "slate rigs: name the broker with --broker mqtt://HOST[:PORT], or a profile with an mqtt section")
            throw Slate.badInput
        }
        if let username { spec.username = username }
        if let caFile { spec.caFile = caFile }
        if let topicPrefix {
            if let problem = RigTopics.prefixProblem(topicPrefix) {
                OutputStream.writeError("slate rigs: --topic-prefix: \(problem)")
                throw Slate.badInput
            }
            spec.topicPrefix = topicPrefix
        }
        return spec
    }
}

import Logging
import SlateCore
import SlateNetwork
import SlateSystem
import Synchronization

/// `slate run`'s links to the OBS instances of the profile's obs section: each
/// `obs` action goes to every one of them, in order, without waiting; each
/// OBS's answer becomes an `obs` line at the loop's next tick. Links connect
/// and reconnect on their own tasks, so an OBS that is closed costs the rig
/// nothing but a `failed` line.
final class OBSBridge {
    /// The answers that came, until the loop takes them.
    private final class Answers: Sendable {
        let results = Mutex<[OBSResult]>([])
    }

    private let links: [OBSLink]
    private let answers = Answers()
    /// Each request handed on and not answered yet, by its link and serial: its text.
    private var asked: [String: String] = [:]

    init(spec: OBSSpec, password: String?, wake: Wakeup, logger: Logger) {
        let answers = answers
        links = spec.targets.map { url in
            OBSLink(
                url: url, password: password, logger: logger,
                onResult: { result in
                    answers.results.withLock { $0.append(result) }
                    wake.signal()
                })
        }
    }

    /// Hands `request` to every OBS.
    func send(_ request: OBSRequest) {
        for link in links {
            let serial = link.enqueue(request.requestType, data: request.data)
            asked["\(link.url) \(serial)"] = request.description
        }
    }

    /// The answers that came since the last call, as `obs` lines.
    func poll(effects: EffectCarrier, at now: Instant) {
        let results = answers.results.withLock { results in
            defer { results.removeAll() }
            return results
        }
        guard !results.isEmpty else { return }
        effects.carryOut(
            results.map { result in
                let request = asked.removeValue(forKey: "\(result.url) \(result.serial)") ?? result.requestType
                return .report(.obs(OBSReport(time: now, target: result.url, request: request, failure: result.failure)))
            })
    }

    func stop() {
        for link in links { link.stop() }
    }
}

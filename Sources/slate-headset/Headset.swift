import CBluetooth
import FoundationEssentials

/// The emulated headset: runs script steps against the rig and says what it
/// sent and when, a JSON line each, its time `t` in seconds on CLOCK_MONOTONIC
/// (the clock Slate stamps input events with).
final class Headset {
    /// One thing the headset did or saw.
    struct Said: Encodable {
        var t: Double
        var event: String
        var operation: String?
        var answer: String?
        var message: String?
    }

    private let adapter: bdaddr_t
    private let rig: bdaddr_t
    private var link: AVCTPLink?
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    /// Whether a step failed.
    private(set) var failed = false

    init(adapter: bdaddr_t, rig: bdaddr_t) {
        self.adapter = adapter
        self.rig = rig
    }

    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func say(
        _ event: String, _ operation: String? = nil, answer: String? = nil, message: String? = nil, at t: Double? = nil
    ) {
        let said = Said(
            t: ((t ?? Self.now()) * 1e6).rounded() / 1e6, event: event, operation: operation, answer: answer, message: message)
        guard var line = try? encoder.encode(said) else { return }
        line.append(0x0A)
        _ = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    private func fail(_ error: HeadsetError) {
        failed = true
        say("failed", message: error.description)
    }

    func run(_ step: HeadsetStep) {
        switch step {
        case .connect: connect()
        case .disconnect: disconnect()
        case .reconnect:
            if link != nil { disconnect() }
            connect()
        case .click(let name):
            send(name, released: false)
            pause(HeadsetStep.clickLength)
            send(name, released: true)
        case .hold(let name, let length):
            let start = Self.now()
            send(name, released: false)
            let interval = HeadsetStep.repeatInterval.inSeconds
            let repeats = Int((length.inSeconds / interval).rounded(.up)) - 1
            for count in stride(from: 1, through: repeats, by: 1) {
                pause(until: start + Double(count) * interval)
                send(name, released: false, event: "repeat")
            }
            pause(until: start + length.inSeconds)
            send(name, released: true)
        case .press(let name): send(name, released: false)
        case .release(let name): send(name, released: true)
        case .alternate(let clicks, let every):
            let start = Self.now()
            for index in 0..<clicks {
                pause(until: start + Double(index) * every.inSeconds)
                run(.click(index % 2 == 0 ? "PLAY" : "PAUSE"))
            }
            pause(until: start + Double(clicks) * every.inSeconds)
        case .wait(let length): pause(length)
        }
    }

    private func connect() {
        guard link == nil else { return say("connected", message: "already connected") }
        let started = Self.now()
        do {
            link = try AVCTPLink(from: adapter, to: rig)
            say("connected", message: "in \(Int(((Self.now() - started) * 1000).rounded())) ms")
        } catch {
            fail(error)
        }
    }

    private func disconnect() {
        guard link != nil else { return say("disconnected", message: "was not connected") }
        link = nil
        say("disconnected")
    }

    private func send(_ name: String, released: Bool, event: String? = nil) {
        guard let link, let operation = PassThrough.operations[name] else {
            return fail(HeadsetError("\(name) not sent: not connected"))
        }
        let sent = Self.now()
        do {
            let answer = try link.send(operation, released: released)
            say(event ?? (released ? "release" : "press"), name, answer: answer ?? "none", at: sent)
        } catch {
            self.link = nil
            fail(error)
        }
    }

    /// Waits `length`, answering what the rig sends meanwhile.
    private func pause(_ length: Duration) { pause(until: Self.now() + length.inSeconds) }

    private func pause(until end: Double) {
        while case let left = end - Self.now(), left > 0 {
            if let link {
                do {
                    try link.listen(milliseconds: Int32(max(1, (left * 1000).rounded(.up))))
                } catch {
                    self.link = nil
                    say("disconnected", message: "\(error)")
                }
            } else {
                var time = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
                nanosleep(&time, nil)
            }
        }
    }
}

extension Duration {
    var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

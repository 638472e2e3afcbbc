import Foundation
import SlateCore

/// A golden transcript of a rig on a broker (`RigNetworkMachine`): a profile
/// with an `mqtt` section, timed inputs, and every action they lead to. Runs
/// of spaces are folded when comparing.
///
///     [profile]
///     ...YAML, with mqtt: {broker: ..., rig: cam-a}...
///     [events]
///     0.000 connected
///     0.100 disconnected the broker went away
///     0.200 message slate/all/cmd {"action":"take.start","at":@0.350,"id":"cam-b-1","from":"cam-b"}
///     0.300 dropped 2 1              (messages the worker dropped: oversized, overflow)
///     0.400 poll                     (a poll begins: the camera at 30 fps)
///     0.400 due                      (the commands due run, then the spreads due are printed)
///     0.500 send rigs take.start     (this rig sends a command, pressed at 0.500)
///     0.600 started 1 @0.583         (this rig's take 1 started, its first frame at 0.583)
///     0.600 failed                   (this rig's take could not start)
///     0.600 state recording          (this rig's state, as its payload's text)
///     0.700 goodbye
///     [expect]
///     0.000 subscribe slate/cam-a/cmd
///     0.350 run cam-b-1: take.start from rig cam-b
///     0.350 effect take start
///
/// `@S` is CLOCK_REALTIME at the monotonic instant S (a fixed offset apart);
/// payloads published show their instants the same way. A `run` is carried
/// out by a real rig (`RigDriver`) with the profile: its reports and take
/// commands follow it, each report line going out as the daemon's do.
struct NetworkTranscript {
    /// CLOCK_REALTIME at the monotonic instant 0, in nanoseconds.
    static let realtimeBase: Int64 = 1_800_000_000_000_000_000

    var name: String
    var profile: String
    var events: [(time: Instant, input: String)] = []
    var expected: [String] = []

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(name: String, text: String) throws {
        self.name = name
        var profileLines: [String] = []
        for (section, number, line, content) in Transcript.lines(text) {
            switch section {
            case "profile": profileLines.append(line)
            case "events" where !content.isEmpty:
                guard let space = content.firstIndex(of: " "), let seconds = Double(content[..<space]) else {
                    throw ParseError(description: "\(name):\(number): \(content)")
                }
                events.append((Self.instant(seconds), String(content[content.index(after: space)...])))
            case "expect" where !content.isEmpty: expected.append(Transcript.fold(content))
            default: break
            }
        }
        profile = profileLines.joined(separator: "\n")
    }

    static func instant(_ seconds: Double) -> Instant { Instant(microseconds: Int64((seconds * 1_000_000).rounded())) }

    static func realtimeNs(_ time: Instant) -> Int64 { realtimeBase + time.microseconds * 1000 }

    /// `@S` in `text` as CLOCK_REALTIME nanoseconds.
    static func expand(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: "@([0-9]+(\\.[0-9]+)?)") else { return text }
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: text)!
            let seconds = Double(text[Range(match.range(at: 1), in: text)!]) ?? 0
            result.replaceSubrange(range, with: String(realtimeNs(instant(seconds))))
        }
        return result
    }

    /// CLOCK_REALTIME nanoseconds in `text` near the base shown as `@S`.
    static func shorten(_ text: String) -> String {
        guard let pattern = try? NSRegularExpression(pattern: "18[0-9]{17}") else { return text }
        var result = text
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            let range = Range(match.range, in: text)!
            let ns = Int64(text[range]) ?? 0
            result.replaceSubrange(
                range,
                with: "@"
                    + Instant(microseconds: (ns - realtimeBase) / 1000).seconds(since: Instant(microseconds: 0), decimals: 3))
        }
        return result
    }

    func run() throws -> [String] {
        let profile: Profile
        switch ProfileLoader.load(self.profile, file: "\(name)[profile]") {
        case .success(let loaded): profile = loaded
        case .failure(let errors): throw ParseError(description: errors.description)
        }
        guard let spec = profile.mqtt else { throw ParseError(description: "\(name): the profile has no mqtt section") }
        var machine = RigNetworkMachine(spec: spec, profile: profile, session: "s1")
        let rig = RigDriver(RigMachine(profile: profile, book: RigBook(camera: profile.camera), captureActive: true))
        let origin = Instant(microseconds: 0)
        let format = ReportFormat(origin: origin)
        var output: [String] = []

        func stamp(_ time: Instant) -> String { time.seconds(since: origin, decimals: 3) }

        func show(_ actions: [RigNetworkMachine.Action], at time: Instant) {
            for action in actions {
                switch action {
                case .subscribe(let pattern): output.append("\(stamp(time)) subscribe \(pattern)")
                case .publish(let topic, let payload, let qos, let retain):
                    let text = Self.shorten(String(decoding: payload, as: UTF8.self))
                    output.append("\(stamp(time)) publish \(topic) qos \(qos)\(retain ? " retained" : "") \(text)")
                case .report(let report): output.append("\(stamp(time)) report \(format.body(report))")
                case .log(let level, let message): output.append("\(stamp(time)) log \(level.rawValue) \(message)")
                case .run(let request, let id):
                    let steps = request.steps.map(\.action.name).joined(separator: "; ")
                    output.append("\(stamp(time)) run \(id): \(steps) from \(request.source) at \(stamp(request.time))")
                    machine.answering(id)
                    rig.handle(.request(request))
                    let effects = rig.takeEffects()
                    for effect in effects {
                        switch effect {
                        case .report(let report):
                            output.append("\(stamp(time)) effect \(format.body(report))")
                            let line = ReportLine(report, origin: origin)
                            show(machine.lineOut(report, line, text: format.body(report), at: time), at: time)
                        case .take(let command, let at): output.append("\(stamp(time)) effect take \(command) at \(stamp(at))")
                        default: break
                        }
                    }
                    machine.answered(id, effects: effects)
                }
            }
        }

        for (time, input) in events {
            let words = input.split(separator: " ", maxSplits: 1).map(String.init)
            let rest = words.count > 1 ? words[1] : ""
            switch words[0] {
            case "connected": show(machine.connected(), at: time)
            case "disconnected": show(machine.disconnected(reason: rest), at: time)
            case "message":
                let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
                let payload = Array(Self.expand(parts.count > 1 ? parts[1] : "").utf8)
                show(machine.received(topic: parts[0], payload: payload, at: time, realtimeNs: Self.realtimeNs(time)), at: time)
            case "dropped":
                let counts = rest.split(separator: " ").compactMap { Int($0) }
                show(machine.dropped(oversized: counts.first ?? 0, overflow: counts.last ?? 0), at: time)
            case "poll":
                show(machine.poll(fps: FrameRate(String(rest)) ?? 30, profile: profile, origin: origin), at: time)
            case "due":
                show(machine.due(at: time), at: time)
                show(machine.spreadsDue(at: time), at: time)
            case "send":
                let command = try Self.command(rest)
                let (report, actions) = machine.send(
                    command, at: time, timeNs: Self.realtimeNs(time), now: time, realtimeNs: Self.realtimeNs(time))
                show([.report(report)] + actions, at: time)
            case "started":
                let parts = rest.split(separator: " ").map(String.init)
                let first = Self.instant(Double(parts[1].dropFirst()) ?? 0)
                let report = Report.take(
                    TakeReport(time: first, event: .started, take: Int(parts[0]), realtimeNs: Self.realtimeNs(first)))
                show(machine.lineOut(report, ReportLine(report, origin: origin), text: format.body(report), at: time), at: time)
            case "failed":
                let report = Report.take(TakeReport(time: time, event: .failed, message: "the camera is not streaming"))
                show(machine.lineOut(report, ReportLine(report, origin: origin), text: format.body(report), at: time), at: time)
            case "state":
                show(machine.state(Array("{\"online\":true,\"text\":\"\(rest)\"}".utf8)), at: time)
            case "goodbye": show(machine.goodbye(), at: time)
            default: throw ParseError(description: "\(name): unknown input \(input)")
            }
        }
        return output.map(Transcript.fold)
    }

    /// `rigs ACTION` or `rig NAME ACTION`.
    static func command(_ text: String) throws -> RigsCommand {
        let words = text.split(separator: " ", maxSplits: 2).map(String.init)
        switch words.first {
        case "rigs" where words.count >= 2: return RigsCommand(target: .every, text: words.dropFirst().joined(separator: " "))
        case "rig" where words.count == 3: return RigsCommand(target: .rig(words[1]), text: words[2])
        default: throw ParseError(description: "not a rigs command: \(text)")
        }
    }
}

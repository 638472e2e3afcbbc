import Foundation

@testable import SlateCore

/// A golden transcript of the take pipeline's decisions (`TakeFlow`): timed
/// inputs, and every action they lead to.
///
///     [events]
///     0.000 stream                      (the camera streams)
///     0.100 commands start 0.100; zoom 2  (commands posted since the last frame)
///     0.133 opened                      (the take asked for opened)
///     0.200 closed                      (the open take closed)
///     0.300 switched stop 0.300         (a switch is over; the commands since the last frame,
///                                        then those it held)
///     0.400 ended                       (the stream ended, its take closed; the commands since the last frame)
///     [expect]
///     0.100 start 0.100
///     0.100 zoom 2
///
/// Commands: start T, stop T, zoom F, preroll S, await-switch, delete-last,
/// delete N, undelete [FILE], export NAME, mute FROM UNTIL. `start T opens` opens its take
/// at once, as a start with pre-roll does.
struct TakeFlowTranscript {
    var name: String
    /// Each command with whether its take opens at once (a start with pre-roll).
    var events: [(time: Instant, input: String, commands: [(TakeFlow<String>.Command, opens: Bool)])] = []
    var expected: [String] = []

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    init(name: String, text: String) throws {
        self.name = name
        for (section, number, _, content) in Transcript.lines(text) where !content.isEmpty {
            switch section {
            case "events":
                let words = content.split(separator: " ", maxSplits: 2).map(String.init)
                guard words.count >= 2, let seconds = Double(words[0]) else {
                    throw ParseError(description: "\(name):\(number): \(content)")
                }
                let commands = try (words.count > 2 ? words[2] : "").split(separator: ";").map {
                    let text = $0.trimmingCharacters(in: .whitespaces)
                    let opens = text.hasSuffix(" opens")
                    return (try Self.command(opens ? String(text.dropLast(6)) : text, line: number), opens)
                }
                events.append((NetworkTranscript.instant(seconds), words[1], commands))
            case "expect": expected.append(Transcript.fold(content))
            default: break
            }
        }
    }

    static func command(_ text: String, line: Int) throws -> TakeFlow<String>.Command {
        let words = text.split(separator: " ").map(String.init)
        func time(_ index: Int) throws -> Instant {
            guard words.count > index, let seconds = Double(words[index]) else {
                throw ParseError(description: "line \(line): \(text)")
            }
            return NetworkTranscript.instant(seconds)
        }
        switch words.first {
        case "start": return .start(try time(1))
        case "stop": return .stop(try time(1))
        case "zoom": return .zoom(Double(words.last ?? "") ?? 1)
        case "mark": return .mark(words.count > 2 ? words.last : nil, at: try time(1))
        case "preroll": return .preroll(.microseconds(try time(1).microseconds))
        case "await-switch": return .awaitSwitch
        case "delete-last": return .deleteLast
        case "delete": return .delete(.number(Int(words.last ?? "") ?? 0))
        case "undelete": return .undelete(words.count > 1 ? words.last : nil)
        case "export": return .export(words.dropFirst().joined(separator: " "))
        case "mute": return .muteSound(from: try time(1), until: try time(2))
        default: throw ParseError(description: "line \(line): unknown command \(text)")
        }
    }

    func run() throws -> [String] {
        var flow = TakeFlow<String>()
        var output: [String] = []
        let origin = Instant(microseconds: 0)
        func seconds(_ time: Instant) -> String { time.seconds(since: origin, decimals: 3) }
        for (time, input, commands) in events {
            // Each batch as the pipeline hands it over: one command at a time,
            // what it leads to carried out before the next, then taken.
            func take(_ commands: [(TakeFlow<String>.Command, opens: Bool)]) -> [TakeFlow<String>.Action] {
                var actions: [TakeFlow<String>.Action] = []
                for (command, opens) in commands {
                    let done = flow.received(command)
                    if opens, done.contains(where: { if case .start = $0 { true } else { false } }) { flow.takeOpened() }
                    actions += done
                }
                return actions + flow.commandsTaken()
            }
            var actions: [TakeFlow<String>.Action] = []
            switch input {
            case "stream": flow.streamStarted()
            case "commands": actions = take(commands)
            case "opened": flow.takeOpened()
            case "closed": actions = flow.takeClosed()
            case "switched":
                actions = take(commands)
                actions += take(flow.switchEnded().map { ($0, opens: false) })
            case "ended":
                flow.streamEnded()
                actions = take(commands)
            default: throw ParseError(description: "\(name): unknown input \(input)")
            }
            for action in actions {
                let text: String
                switch action {
                case .start(let at): text = "start \(seconds(at))"
                case .stop(let at): text = "stop \(seconds(at))"
                case .zoom(let factor): text = "zoom \(NumberText.format(factor))"
                case .mark(let name, let at): text = "mark \(seconds(at))" + (name.map { " \($0)" } ?? "")
                case .preroll(let preroll): text = "preroll \(seconds(origin + preroll))"
                case .muteSound(let from, let until): text = "mute \(seconds(from)) \(seconds(until))"
                case .startFailed(let reason): text = "start failed: \(reason)"
                case .deleteLast: text = "delete-last"
                case .delete(let choice): text = "delete \(choice)"
                case .undelete(let file): text = "undelete" + (file.map { " \($0)" } ?? "")
                case .export(let export): text = "export \(export)"
                }
                output.append(Transcript.fold("\(seconds(time)) \(text)"))
            }
        }
        return output
    }
}

@testable import SlateCore

/// A golden transcript of the tally (`TallyMachine`): its outputs, the rig's
/// signals and failures over time, and what each output is shown, when.
///
///     [outputs]
///     led                          (an LED with the default patterns)
///     busylight; exporting: blink blue
///     [events]
///     0 start
///     1000 signals recording       (recording, exporting, lost: the signals on)
///     2500 failed
///     3000 run 9000                (every deadline up to 9000 ms is met)
///
/// After each event, `TIME state STATE` (a run's at its end).
///     [expect]
///     0 #0 dark
///     0 #1 lit green
///     1000 #0 lit red
///
/// Times are milliseconds; `error-hold MS` in `[outputs]` sets the hold.
struct TallyTranscript {
    var name: String
    var spec = TallySpec()
    var events: [(time: Int64, words: [String])] = []
    var expected: [String] = []

    init(name: String, text: String) throws {
        self.name = name
        for (section, number, _, content) in Transcript.lines(text) where !content.isEmpty {
            let fail = TakeFlowTranscript.ParseError(description: "\(name):\(number): \(content)")
            switch section {
            case "outputs":
                let parts = content.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                let head = parts[0].split(separator: " ").map(String.init)
                switch head[0] {
                case "error-hold":
                    guard head.count == 2, let ms = Int64(head[1]) else { throw fail }
                    spec.errorHold = .milliseconds(ms)
                    continue
                case "led": spec.outputs.append(TallyOutput(target: .led(input: "pedals", code: 2)))
                case "gpio": spec.outputs.append(TallyOutput(target: .gpio(chip: "gpiochip0", line: 17, activeLow: false)))
                case "busylight": spec.outputs.append(TallyOutput(target: .busylight(model: nil, device: nil)))
                default: throw fail
                }
                for part in parts.dropFirst() {
                    let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard pair.count == 2, let state = TallyState(rawValue: pair[0]),
                        let pattern = TallyPattern(pair[1], color: .red)
                    else { throw fail }
                    spec.outputs[spec.outputs.count - 1].patterns[state] = pattern
                }
            case "events":
                let words = content.split(separator: " ").map(String.init)
                guard words.count >= 2, let time = Int64(words[0]) else { throw fail }
                events.append((time, Array(words.dropFirst())))
            case "expect": expected.append(Transcript.fold(content))
            default: break
            }
        }
    }

    func run() throws -> [String] {
        let at = { (ms: Int64) in Instant(microseconds: ms * 1000) }
        var machine = TallyMachine(spec: spec, at: at(events.first?.time ?? 0))
        var output: [String] = []
        func note(_ shows: [TallyMachine.Show], _ time: Instant) {
            for show in shows { output.append("\(time.microseconds / 1000) #\(show.output) \(show.light)") }
        }
        for (time, words) in events {
            var stamp = time
            switch words[0] {
            case "start": note(machine.start(), at(time))
            case "signals":
                let on = Set(words.dropFirst())
                let signals = TallySignals(
                    recording: on.contains("recording"), exporting: on.contains("exporting"), cameraLost: on.contains("lost"))
                note(machine.update(signals, at: at(time)), at(time))
            case "failed": note(machine.failed(at: at(time)), at(time))
            case "run":
                guard words.count == 2, let end = Int64(words[1]) else {
                    throw TakeFlowTranscript.ParseError(description: "run END")
                }
                while let next = machine.nextDeadline, next <= at(end) { note(machine.tick(at: next), next) }
                stamp = end
            default: throw TakeFlowTranscript.ParseError(description: "\(name): unknown event \(words[0])")
            }
            output.append("\(stamp) state \(machine.state.rawValue)")
        }
        return output
    }
}

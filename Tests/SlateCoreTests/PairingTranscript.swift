import Foundation

@testable import SlateCore

/// A golden transcript of pairing (`PairingDesk`): codes opened, codes sent
/// by browsers, and what each met, as the state folder's code file would
/// hold the open code (removed when an answer ends it).
///
///     [events]
///     0 open 123456 300      (a code opened at 0 s, good for 300 s)
///     10 send 000000         (a browser sends a code)
///     [expect]
///     10 wrong: 4 left
///     310 expired, the code ends
struct PairingTranscript {
    var name: String
    var events: [(time: Int64, words: [String])] = []
    var expected: [String] = []

    init(name: String, text: String) throws {
        self.name = name
        for (section, number, _, content) in Transcript.lines(text) where !content.isEmpty {
            switch section {
            case "events":
                let words = content.split(separator: " ").map(String.init)
                guard words.count >= 2, let time = Int64(words[0]) else {
                    throw TakeFlowTranscript.ParseError(description: "\(name):\(number): \(content)")
                }
                events.append((time, Array(words.dropFirst())))
            case "expect": expected.append(Transcript.fold(content))
            default: break
            }
        }
    }

    func run() -> [String] {
        var desk = PairingDesk()
        var open: PairingCode?
        var output: [String] = []
        for (time, words) in events {
            switch words[0] {
            case "open":
                open = PairingCode(code: words[1], expires: time + (Int64(words[2]) ?? PairingCode.lifetime))
            case "send":
                let answer = desk.redeem(words.count > 1 ? words[1] : "", open: open, now: time)
                if answer.endsCode { open = nil }
                output.append("\(time) \(Self.text(answer))" + (answer.endsCode ? ", the code ends" : ""))
            default: output.append("\(time) unknown event \(words[0])")
            }
        }
        return output
    }

    static func text(_ answer: PairingDesk.Answer) -> String {
        switch answer {
        case .paired: "paired"
        case .wrong(let left): "wrong: \(left) left"
        case .void: "void"
        case .expired: "expired"
        case .noCode: "no code"
        case .malformed: "malformed"
        }
    }
}

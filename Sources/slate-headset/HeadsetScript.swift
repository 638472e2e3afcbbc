/// What the emulated headset does: its script, a step a line.
///
///     connect                 open AVCTP to the rig (pairing first, Just Works, when not yet paired)
///     click PLAY              press, and release 10 ms later, as a headset's click
///     hold PLAY 1.5s          press, the press again every 300 ms while held, release after 1.5 s
///     press PLAY              press with no release (BlueZ releases it itself)
///     release PLAY            release alone
///     alternate 4 2s          4 clicks 2 s apart: PLAY, PAUSE, PLAY, PAUSE, as many headsets send them
///     wait 500ms              do nothing for that long
///     disconnect              close AVCTP and the link
///     reconnect               disconnect if connected, then connect
///
/// `#` starts a comment. Operations: PLAY, PAUSE, STOP, FORWARD, BACKWARD,
/// VOLUME_UP, VOLUME_DOWN, MUTE, RECORD, REWIND, FAST_FORWARD.
enum HeadsetStep: Equatable {
    case connect
    case disconnect
    case reconnect
    case click(String)
    case hold(String, Duration)
    case press(String)
    case release(String)
    case alternate(Int, every: Duration)
    case wait(Duration)

    /// How long a click's button is down.
    static let clickLength = Duration.milliseconds(10)
    /// How often a held button's press is sent again (AVRCP asks for less than 2 s).
    static let repeatInterval = Duration.milliseconds(300)

    /// The step a line of the script says; nil for a blank line or a comment.
    static func parse(_ line: String) throws(HeadsetScriptError) -> HeadsetStep? {
        let words = line.prefix { $0 != "#" }.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        let arguments = Array(words.dropFirst())
        func operation(_ index: Int) throws(HeadsetScriptError) -> String {
            guard index < arguments.count else { throw HeadsetScriptError("\(verb) needs an operation such as PLAY") }
            let name = arguments[index].uppercased()
            guard PassThrough.operations[name] != nil else {
                throw HeadsetScriptError(
                    "unknown operation '\(arguments[index])' (\(PassThrough.operations.keys.sorted().joined(separator: ", ")))")
            }
            return name
        }
        func duration(_ index: Int) throws(HeadsetScriptError) -> Duration {
            guard index < arguments.count, let duration = Self.duration(arguments[index]) else {
                throw HeadsetScriptError("\(verb) needs a duration such as 1.5s or 500ms")
            }
            return duration
        }
        let step: HeadsetStep
        let count: Int
        switch verb {
        case "connect": (step, count) = (.connect, 0)
        case "disconnect": (step, count) = (.disconnect, 0)
        case "reconnect": (step, count) = (.reconnect, 0)
        case "click": (step, count) = (.click(try operation(0)), 1)
        case "hold": (step, count) = (.hold(try operation(0), try duration(1)), 2)
        case "press": (step, count) = (.press(try operation(0)), 1)
        case "release": (step, count) = (.release(try operation(0)), 1)
        case "alternate":
            guard let clicks = arguments.first.flatMap({ Int($0) }), (1...1000).contains(clicks) else {
                throw HeadsetScriptError("alternate needs a number of clicks from 1 to 1000")
            }
            (step, count) = (.alternate(clicks, every: try duration(1)), 2)
        case "wait": (step, count) = (.wait(try duration(0)), 1)
        default: throw HeadsetScriptError("unknown step '\(verb)'")
        }
        guard arguments.count == count else {
            throw HeadsetScriptError("\(verb) takes \(count) argument\(count == 1 ? "" : "s")")
        }
        return step
    }

    /// `1.5s`, `500ms`.
    static func duration(_ text: String) -> Duration? {
        let (digits, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 1e-3) : text.hasSuffix("s") ? (text.dropLast(), 1) : ("", 0)
        guard let value = Double(digits), value >= 0, value <= 3600 else { return nil }
        return .microseconds(Int64((value * scale * 1_000_000).rounded()))
    }
}

/// A line of the script that is not a step.
struct HeadsetScriptError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

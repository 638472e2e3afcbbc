/// Formats reports as one line each: JSON objects, or aligned text.
/// `t` is seconds since `origin` (the recording's first event, or monitor start).
public struct ReportFormat: Sendable {
    public var origin: Instant

    public init(origin: Instant) { self.origin = origin }

    /// The report as a JSON object; `dispatched`, when given, is when a live rig
    /// handled it (for latency measurements), in the same seconds as `t`.
    public func json(_ report: Report, dispatched: Instant? = nil) -> String {
        var object = JSONObject()
        object.number("t", report.time.seconds(since: origin))
        if let dispatched { object.number("dispatched", dispatched.seconds(since: origin)) }
        switch report {
        case .capture(let capture):
            object.string("type", "capture")
            object.string("input", capture.input)
            object.string("code", capture.code.name)
            object.string("role", capture.role?.rawValue ?? "direct")
            object.string("phase", capture.phase.rawValue)
        case .action(let action):
            object.string("type", "action")
            object.string("action", action.action.name)
            if let value = action.value { object.number("value", NumberText.format(value)) }
            switch action.action {
            case .wait(let duration): object.string("duration", DurationText.format(duration))
            case .sound(let name): object.string("sound", name)
            case .zoomSet(let factor): object.number("value", NumberText.format(factor))
            case .exec(let argv): object.strings("argv", argv)
            default: break
            }
            if let macro = action.macro { object.string("macro", macro) }
            if let trigger = action.trigger { add(trigger, to: &object) }
            if let outcome = action.outcome { object.string("result", outcome.summary) }
        case .sound(let sound):
            object.string("type", "sound")
            object.string("sound", sound.sound)
            if let file = sound.file { object.string("file", file) }
            if let input = sound.input { object.string("input", input) }
        case .take(let take):
            object.string("type", "take")
            object.string("event", take.event.rawValue)
            if let number = take.take { object.number(take.event == .exported ? "takes" : "take", String(number)) }
            if let path = take.path { object.string("path", path) }
            if let duration = take.duration { object.number("duration", Instant.formatSeconds(duration.microseconds, decimals: 3)) }
            if let frames = take.frames { object.number("frames", String(frames)) }
            if let dropped = take.dropped { object.number("dropped", String(dropped)) }
            if let message = take.message { object.string("message", message) }
        case .ignored(let ignored):
            object.string("type", "ignored")
            object.string("input", ignored.input)
            object.string("code", ignored.code.name)
            object.string("reason", ignored.reason.text)
        }
        return object.closed
    }

    private func add(_ trigger: TriggerInfo, to object: inout JSONObject) {
        object.string("input", trigger.input)
        object.string("code", trigger.code.name)
        if let role = trigger.role { object.string("role", role.rawValue) }
        if let gesture = trigger.gesture { object.string("gesture", gesture.rawValue) }
    }

    public func text(_ report: Report) -> String {
        let time = Self.pad(report.time.seconds(since: origin, decimals: 3), 9, right: true)
        switch report {
        case .capture(let capture):
            return "\(time)  capture  " + Self.pad(capture.input, 12) + " " + Self.pad(capture.code.name, 16) + " "
                + Self.pad(capture.role?.rawValue ?? "direct", 9) + " " + capture.phase.rawValue
        case .action(let action):
            var line = "\(time)  action   " + Self.pad(actionText(action), 22)
            if let outcome = action.outcome { line += " -> " + outcome.summary }
            var origin: [String] = []
            if let macro = action.macro { origin.append("macro \(macro)") }
            if let trigger = action.trigger {
                origin.append(
                    ([trigger.input, trigger.code.name] + [trigger.role?.rawValue, trigger.gesture?.rawValue].compactMap { $0 })
                        .joined(separator: " "))
            }
            if !origin.isEmpty { line += "  (" + origin.joined(separator: "; ") + ")" }
            return Self.trimTrailing(line)
        case .sound(let sound):
            var line = "\(time)  sound    " + sound.sound
            if let file = sound.file { line += " " + file }
            if let input = sound.input { line += "  (\(input))" }
            return line
        case .take(let take):
            return "\(time)  take     " + takeText(take)
        case .ignored(let ignored):
            return "\(time)  ignored  " + Self.pad(ignored.input, 12) + " " + Self.pad(ignored.code.name, 16) + " "
                + ignored.reason.text
        }
    }

    private func takeText(_ take: TakeReport) -> String {
        var words = [take.event.rawValue]
        if let number = take.take {
            words.append(take.event == .exported ? "\(number) take\(number == 1 ? "" : "s")" : "take \(number)")
        }
        if let path = take.path { words.append(path) }
        var figures: [String] = []
        if let duration = take.duration { figures.append(Instant.formatSeconds(duration.microseconds, decimals: 3) + " s") }
        if let frames = take.frames { figures.append("\(frames) frames") }
        if let dropped = take.dropped { figures.append("\(dropped) dropped") }
        var line = words.joined(separator: " ")
        if !figures.isEmpty { line += "  " + figures.joined(separator: ", ") }
        if let message = take.message { line += (take.event == .failed ? ": " : "  (") + message + (take.event == .failed ? "" : ")") }
        return line
    }

    private func actionText(_ action: ActionReport) -> String {
        switch action.action {
        case .zoomStep:
            let value = action.value ?? 1
            return "zoom.step " + (value >= 0 ? "+" : "") + NumberText.format(value)
        case .zoomSet(let factor): return "zoom.set " + NumberText.format(factor)
        case .wait(let duration): return "wait " + DurationText.format(duration)
        case .sound(let name): return "sound " + name
        case .exec(let argv): return "exec " + argv.map(Self.shellQuoted).joined(separator: " ")
        default: return action.action.name
        }
    }

    /// An argument as a shell would need it, for display only.
    static func shellQuoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:,+@%".contains($0) }
        return plain ? argument : "'" + argument.replacingAll("'", with: "'\\''") + "'"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }

    static func trimTrailing(_ text: String) -> String {
        var text = Substring(text)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

/// Builds one JSON object, keys in insertion order.
public struct JSONObject {
    private var text = "{"
    private var empty = true

    public init() {}

    public mutating func string(_ key: String, _ value: String) { field(key, JSONObject.quoted(value)) }

    /// `value` is already a JSON number.
    public mutating func number(_ key: String, _ value: String) { field(key, value) }

    public mutating func bool(_ key: String, _ value: Bool) { field(key, value ? "true" : "false") }

    public mutating func null(_ key: String) { field(key, "null") }

    public mutating func strings(_ key: String, _ values: [String]) {
        field(key, "[" + values.map(JSONObject.quoted).joined(separator: ",") + "]")
    }

    public mutating func object(_ key: String, _ value: JSONObject) { field(key, value.closed) }

    public mutating func objects(_ key: String, _ values: [JSONObject]) {
        field(key, "[" + values.map(\.closed).joined(separator: ",") + "]")
    }

    private mutating func field(_ key: String, _ value: String) {
        if !empty { text += "," }
        empty = false
        text += JSONObject.quoted(key) + ":" + value
    }

    /// The finished object's text.
    public var closed: String { text + "}" }

    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}

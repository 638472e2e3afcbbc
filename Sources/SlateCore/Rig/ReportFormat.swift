/// Formats reports as one line each: JSON objects, or aligned text.
/// `t` is seconds since `origin` (the recording's first event, or monitor start).
public struct ReportFormat: Sendable {
    public var origin: Instant

    public init(origin: Instant) { self.origin = origin }

    /// The report as a JSON line (`ReportLine`); `dispatched`, when given, is when
    /// a live rig handled it (for latency measurements), in the same seconds as `t`.
    public func json(_ report: Report, dispatched: Instant? = nil) -> String {
        JSONLine.encode(ReportLine(report, origin: origin, dispatched: dispatched))
    }

    public func text(_ report: Report) -> String {
        Self.pad(report.time.seconds(since: origin, decimals: 3), 9, right: true) + "  " + body(report)
    }

    /// The line without its time: `take     started take 1 ...`.
    public func body(_ report: Report) -> String {
        switch report {
        case .phase(let report):
            return "capture  " + Self.pad(report.input, 12) + " " + Self.pad(report.code.name, 16) + " "
                + Self.pad(report.role?.rawValue ?? "direct", 9) + " " + report.phase.rawValue
        case .action(let action):
            var line = "action   " + Self.pad(actionText(action), 22)
            if let outcome = action.outcome { line += " -> " + outcome.summary }
            var origin: [String] = []
            if let macro = action.macro { origin.append("macro \(macro)") }
            if let trigger = action.trigger {
                origin.append(
                    ([trigger.input, trigger.code.name] + [trigger.role?.rawValue, trigger.gesture?.rawValue].compactMap { $0 })
                        .joined(separator: " "))
            }
            if let source = action.source { origin.append("from \(source)") }
            if !origin.isEmpty { line += "  (" + origin.joined(separator: "; ") + ")" }
            return Self.trimTrailing(line)
        case .sound(let sound):
            var line = "sound    " + sound.sound
            if let file = sound.file { line += " " + file }
            if let input = sound.input { line += "  (\(input))" }
            if let failure = sound.failure { line += " failed: " + failure }
            return line
        case .take(let take):
            return "take     " + takeText(take)
        case .rig(let rig):
            return "rig      " + rig.text
        case .obs(let obs):
            return "obs      " + obs.text
        case .control(let control):
            return Self.trimTrailing("control  " + Self.pad(control.control, 12) + " " + controlText(control))
        case .ignored(let ignored):
            return "ignored  " + Self.pad(ignored.input, 12) + " " + Self.pad(ignored.code.name, 16) + " "
                + ignored.reason.text
        case .debounced(let debounced):
            return "debounced " + Self.pad(debounced.input, 11) + " " + Self.pad(debounced.code.name, 16) + " bounce "
                + NumberText.format(Double(debounced.bounce.microseconds) / 1000) + " ms"
        }
    }

    private func takeText(_ take: TakeReport) -> String {
        var words = [take.event.rawValue]
        if let number = take.take {
            words.append(take.event.isExport ? "\(number) take\(number == 1 ? "" : "s")" : "take \(number)")
        }
        if let path = take.path { words.append(path) }
        var figures: [String] = []
        let counts = take.figures
        if let duration = counts.duration { figures.append(Instant.formatSeconds(duration.microseconds, decimals: 3) + " s") }
        if let frames = counts.frames { figures.append("\(frames) frames") }
        if let dropped = counts.dropped { figures.append("\(dropped) dropped") }
        if let sound = take.sound { figures.append(sound.text) }
        if let done = take.progress?.done { figures.append("\(Int((done * 100).rounded()))% done") }
        if let timecode = take.timecode { figures.append("timecode " + timecode) }
        if let proxy = take.proxy { figures.append("proxy " + proxy) }
        var line = words.joined(separator: " ")
        if !figures.isEmpty { line += "  " + figures.joined(separator: ", ") }
        if let message = take.message {
            line += (take.event == .failed ? ": " : "  (") + message + (take.event == .failed ? "" : ")")
        }
        return line
    }

    /// `2.0×  (knob)`, `255  asked 300  (settings)`, `off  disabled: gain is inactive  (camera)`,
    /// `50 Hz  not set: the camera has no control power_line_frequency  (settings)`, `overlay-shown 1.0×`.
    private func controlText(_ control: ControlReport) -> String {
        if let event = control.event {
            return event == .overlayHidden ? event.rawValue : event.rawValue + " " + (control.text ?? "")
        }
        var line: String
        if control.enabled == nil, control.value == nil, let reason = control.reason {
            line = Self.pad(control.asked ?? "", 14) + " not set: " + reason
        } else {
            line = Self.pad(control.text ?? "", 14)
            if let asked = control.asked { line += " asked \(asked)" }
            if control.enabled == false { line += " disabled" + (control.reason.map { ": " + $0 } ?? "") }
        }
        if let source = control.source { line += "  (\(source.rawValue))" }
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
        case .control(.adjust(let detents)):
            let value = detents.map(Double.init) ?? action.value ?? 1
            return "control.adjust " + (value >= 0 ? "+" : "") + NumberText.format(value)
        case .control(.set(let name, let value)): return "control.set \(name) \(value)"
        case .control(.reset(let name)): return "control.reset \(name)"
        case .presetLoad(let slot), .presetSave(let slot): return action.action.name + " \(slot)"
        case .takeDelete(let choice): return action.action.name + " \(choice)"
        case .takeUndelete(let file?): return "take.undelete " + file
        case .takeMark(let name?): return "take.mark " + Self.shellQuoted(name)
        case .takesExport(let filter?): return "takes.export " + filter.rawValue
        case .prompter(.back(let duration)): return "prompter.back " + NumberText.format(duration.inSeconds(decimals: 3))
        case .rigs(let rigs): return rigs.description
        case .obs(let request): return "obs " + request.description
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

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}

import Yams

/// The `camera`, `controls` and `sounds` sections.
extension ProfileParser {
    static let maxControls = 6
    /// The largest magnitude of a slider's bounds, step and values.
    static let controlLimit = 1e9

    mutating func parseCamera(_ node: Node) -> CameraSpec {
        var camera = CameraSpec()
        guard let pairs = reader.mapping(node, "camera") else { return camera }
        reader.checkKeys(
            pairs,
            allowed: [
                "back", "front", "position", "fps", "max-size", "codec", "passthrough", "orientation", "mirror",
                "preroll", "work", "output", "takes-access", "filter", "start", "wait-for-camera",
            ], in: "camera")
        for (key, _, value) in pairs {
            switch key {
            case "back", "front":
                camera.candidates[CameraPosition(rawValue: key)!] = reader.strings(value, key)
            case "position":
                camera.position = reader.choice(value, key, CameraPosition.allCases.map { ($0.rawValue, $0) }) ?? .back
            case "fps": camera.fps = reader.choice(value, key, [("30", 30), ("60", 60)]) ?? camera.fps
            case "max-size": camera.maxSize = parseSize(value)
            case "codec":
                let codecs = reader.strings(value, key) ?? []
                for codec in codecs where !["hevc", "h264"].contains(codec) {
                    reader.error(value, "unknown codec '\(codec)' (expected hevc or h264)")
                }
                if !codecs.isEmpty { camera.codecs = codecs }
            case "passthrough": camera.passthrough = reader.bool(value, key) ?? camera.passthrough
            case "orientation":
                camera.orientation = reader.choice(value, key, [("0", 0), ("90", 90), ("180", 180), ("270", 270)]) ?? 0
            case "mirror": camera.mirror = reader.bool(value, key)
            case "preroll": camera.preroll = reader.duration(value, key, allowZero: true) ?? .zero
            case "work": camera.work = reader.string(value, key)
            case "output": camera.output = reader.string(value, key)
            case "takes-access":
                camera.takesAccess = reader.choice(value, key, TakeAccess.allCases.map { ($0.rawValue, $0) }) ?? .private
            case "filter":
                camera.filter = reader.choice(value, key, ExportFilter.allCases.map { ($0.rawValue, $0) }) ?? .none
            case "start":
                camera.startOnInput = reader.choice(value, key, [("run", false), ("first-input", true)]) ?? false
            case "wait-for-camera": camera.waitForCamera = reader.bool(value, key) ?? false
            default: break
            }
        }
        return camera
    }

    private mutating func parseSize(_ node: Node) -> (width: Int, height: Int)? {
        guard let text = reader.string(node, "max-size") else { return nil }
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (16...16384).contains(width), (16...16384).contains(height)
        else {
            reader.error(node, "max-size must be WIDTHxHEIGHT such as 1920x1080, not '\(text)'")
            return nil
        }
        return (width, height)
    }

    mutating func parseControls(_ node: Node) -> [ControlSpec] {
        guard let items = reader.sequence(node, "controls") else { return [] }
        if items.count > Self.maxControls {
            reader.error(items[Self.maxControls], "a rig has at most \(Self.maxControls) controls")
        }
        return items.compactMap { parseControl($0) }
    }

    private mutating func parseControl(_ node: Node) -> ControlSpec? {
        guard let pairs = reader.mapping(node, "a control") else { return nil }
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        guard let typeNode = value("type") else {
            reader.error(node, "a control needs a type (zoom, exposure-bias, slider or picker)")
            return nil
        }
        let kinds = ["zoom", "exposure-bias", "slider", "picker"]
        guard let type = reader.choice(typeNode, "type", kinds.map { ($0, $0) }) else { return nil }
        let common = ["type", "name", "target", "enabled"]
        let extra: [String] =
            switch type {
            case "slider": ["min", "max", "step", "values", "format"]
            case "picker": ["titles", "selected"]
            default: []
            }
        reader.checkKeys(pairs, allowed: common + extra, in: "a \(type) control")
        let name = value("name").flatMap { reader.string($0, "name") }
        let target = value("target").flatMap { reader.string($0, "target") }
        let enabled = value("enabled").flatMap { reader.bool($0, "enabled") } ?? true
        let format = value("format").flatMap { reader.string($0, "format") }
        let kind: ControlSpec.Kind
        switch type {
        case "zoom": kind = .zoom
        case "exposure-bias": kind = .exposureBias
        case "slider":
            guard let values = parseSliderValues(node, value) else { return nil }
            kind = .slider(values)
        default:
            guard let titlesNode = value("titles"), let titles = reader.strings(titlesNode, "titles"), !titles.isEmpty
            else {
                reader.error(value("titles") ?? node, "a picker needs a list of titles")
                return nil
            }
            let selected = value("selected").flatMap { reader.integer($0, "selected", in: 0...(titles.count - 1)) } ?? 0
            kind = .picker(titles: titles, selected: selected)
        }
        guard let label = name ?? (type == "zoom" ? "Zoom" : type == "exposure-bias" ? "Exposure" : nil) else {
            reader.error(node, "a \(type) control needs a name")
            return nil
        }
        if type == "slider" || type == "picker", target == nil {
            reader.error(node, "a \(type) control needs a target, such as v4l2:brightness or recorder:fps")
        }
        return ControlSpec(kind: kind, name: label, target: target, format: format, enabled: enabled)
    }

    private mutating func parseSliderValues(_ node: Node, _ value: (String) -> Node?) -> ControlSpec.SliderValues? {
        if let valuesNode = value("values") {
            guard let items = reader.sequence(valuesNode, "values") else { return nil }
            let numbers = items.compactMap { reader.number($0, "each value", in: -Self.controlLimit...Self.controlLimit) }
            guard numbers.count == items.count else { return nil }
            guard !numbers.isEmpty else {
                reader.error(valuesNode, "values lists nothing")
                return nil
            }
            if value("min") != nil || value("max") != nil || value("step") != nil {
                reader.error(valuesNode, "a slider has either values or min and max, not both")
            }
            return .explicit(numbers)
        }
        guard let minNode = value("min"), let maxNode = value("max") else {
            reader.error(node, "a slider needs min and max, or a list of values")
            return nil
        }
        guard let low = reader.number(minNode, "min", in: -Self.controlLimit...Self.controlLimit),
            let high = reader.number(maxNode, "max", in: -Self.controlLimit...Self.controlLimit) else { return nil }
        guard low < high else {
            reader.error(maxNode, "max must be greater than min")
            return nil
        }
        guard let stepNode = value("step") else { return .continuous(low...high) }
        guard let step = reader.number(stepNode, "step", in: -Self.controlLimit...Self.controlLimit) else { return nil }
        guard step > 0 else {
            reader.error(stepNode, "step must be greater than 0")
            return nil
        }
        return .stepped(low...high, step: step)
    }

    mutating func parseSounds(_ node: Node) -> SoundSpec {
        var sounds = SoundSpec()
        guard let pairs = reader.mapping(node, "sounds") else { return sounds }
        reader.checkKeys(pairs, allowed: ["device", "feedback", "files"], in: "sounds")
        for (key, _, value) in pairs {
            switch key {
            case "device": sounds.device = reader.string(value, key) ?? sounds.device
            case "feedback": sounds.feedback = reader.bool(value, key) ?? true
            case "files":
                for (name, keyNode, file) in reader.mapping(value, "sounds.files") ?? [] {
                    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
                    else {
                        reader.error(keyNode, "sound name '\(name)' may hold only letters, digits, '-' and '_'")
                        continue
                    }
                    guard let path = reader.string(file, "the file of sound '\(name)'"), !path.isEmpty else { continue }
                    sounds.files[name] = path
                }
            default: break
            }
        }
        return sounds
    }
}

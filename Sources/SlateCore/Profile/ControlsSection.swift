import SlateYAML

/// The `controls` section: a list of controls, or a mapping of settings with
/// the controls under `list`.
extension ProfileParser {
    /// The largest magnitude of a slider's bounds, step and values.
    static let controlLimit = 1e9
    /// The rates `camera.fps` and `recorder:fps` take, as a profile's error lists them.
    static let offeredRates = YAMLReader.list(FrameRate.offered.map(\.description))

    mutating func parseControls(_ node: YAMLNode) -> ([ControlSpec], ControlSettings) {
        var settings = ControlSettings()
        var listNode: YAMLNode?
        if case .sequence = node {
            listNode = node
        } else if let pairs = reader.mapping(node, "controls") {
            reader.checkKeys(pairs, allowed: ["max", "overlay-timeout", "detent", "acceleration", "list"], in: "controls")
            for (key, _, value) in pairs {
                switch key {
                case "max": settings.max = reader.integer(value, key, in: 1...ControlSettings.maxLimit) ?? settings.max
                case "overlay-timeout": settings.overlayTimeout = reader.duration(value, key) ?? settings.overlayTimeout
                case "detent":
                    guard let part = reader.number(value, key, in: 0.001...0.5) else { continue }
                    settings.detent = part
                case "acceleration": settings.acceleration = reader.bool(value, key) ?? settings.acceleration
                default: listNode = value
                }
            }
        }
        guard let listNode, let items = reader.sequence(listNode, "controls") else { return ([], settings) }
        if items.count > settings.max {
            reader.error(items[settings.max], "a rig has at most \(settings.max) controls (controls.max)")
        }
        // Each control with its own node, so an error points at the right one.
        let parsed = items.compactMap { item in parseControl(item).map { (control: $0, item: item) } }
        let controls = parsed.map(\.control)
        var seen: [String: YAMLNode] = [:]
        // One system zoom slider and one exposure-bias slider, as Apple's
        // AVCaptureSystemZoomSlider and AVCaptureSystemExposureBiasSlider: a second is refused.
        var system: [String: YAMLNode] = [:]
        for (control, item) in parsed {
            if let first = seen[control.name.lowercased()] {
                let at = first.mark.map { " (line \($0.line))" } ?? ""
                reader.error(item, "two controls are named '\(control.name)'\(at)")
            } else {
                seen[control.name.lowercased()] = item
            }
            guard control.kind == .zoom || control.kind == .exposureBias else { continue }
            let type = control.kind == .zoom ? "zoom" : "exposure-bias"
            if let first = system[type] {
                let at = first.mark.map { " (line \($0.line))" } ?? ""
                reader.error(item, "a rig has one \(type) control, as Apple's system slider: this one is a second\(at)")
            } else {
                system[type] = item
            }
        }
        return (controls, settings)
    }

    private mutating func parseControl(_ node: YAMLNode) -> ControlSpec? {
        guard let pairs = reader.mapping(node, "a control") else { return nil }
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        guard let typeNode = value("type") else {
            reader.error(node, "a control needs a type (zoom, exposure-bias, slider or picker)")
            return nil
        }
        let kinds = ["zoom", "exposure-bias", "slider", "picker"]
        guard let type = reader.choice(typeNode, "type", kinds.map { ($0, $0) }) else { return nil }
        let common = ["type", "name", "enabled"]
        let extra: [String] =
            switch type {
            case "slider": ["target", "min", "max", "step", "values", "format", "prominent"]
            case "picker": ["target", "titles", "wrap"]
            default: ["format", "prominent"]
            }
        reader.checkKeys(pairs, allowed: common + extra, in: "a \(type) control")
        var spec = ControlSpec(kind: .zoom, name: "")
        spec.enabled = value("enabled").flatMap { reader.bool($0, "enabled") } ?? true
        if let formatNode = value("format"), let format = reader.string(formatNode, "format") {
            if let problem = ControlFormat.problem(format) { reader.error(formatNode, problem) } else { spec.format = format }
        }
        if let node = value("prominent"), let items = reader.sequence(node, "prominent") {
            spec.prominent = items.compactMap {
                reader.number($0, "each prominent value", in: -Self.controlLimit...Self.controlLimit)
            }
        }
        spec.wraps = value("wrap").flatMap { reader.bool($0, "wrap") } ?? false
        let targetNode = value("target")
        if let targetNode, let text = reader.string(targetNode, "target") {
            guard let target = ControlTarget(text) else {
                let settings = RecorderSetting.allCases.map { ControlTarget.recorder($0).description }
                reader.error(
                    targetNode,
                    "unknown target '\(text)' (expected v4l2:NAME such as v4l2:brightness, or \(YAMLReader.list(settings)))")
                return nil
            }
            spec.target = target
        }
        switch type {
        case "zoom":
            spec.kind = .zoom
            spec.prominent = value("prominent") == nil ? [1, 2] : spec.prominent
        case "exposure-bias":
            spec.kind = .exposureBias
            spec.prominent = value("prominent") == nil ? [0] : spec.prominent
        case "slider":
            guard let values = parseSliderValues(node, value) else { return nil }
            spec.kind = .slider(values)
        default:
            var titles: [String]?
            if let titlesNode = value("titles") {
                guard let list = reader.strings(titlesNode, "titles"), !list.isEmpty else {
                    reader.error(titlesNode, "titles lists nothing")
                    return nil
                }
                titles = list
            }
            spec.kind = .picker(titles: titles)
        }
        let defaultName: String? = type == "zoom" ? "Zoom" : type == "exposure-bias" ? "Exposure" : nil
        guard let name = value("name").flatMap({ reader.string($0, "name") }) ?? defaultName, !name.isEmpty else {
            reader.error(node, "a \(type) control needs a name")
            return nil
        }
        spec.name = name
        if type == "slider" || type == "picker" {
            guard let target = spec.target else {
                if targetNode == nil {
                    reader.error(node, "a \(type) control needs a target, such as v4l2:brightness or recorder:fps")
                }
                return nil
            }
            checkTarget(target, of: spec, at: targetNode ?? node)
        }
        return spec
    }

    /// A recorder setting takes the kinds and values it can hold.
    private mutating func checkTarget(_ target: ControlTarget, of spec: ControlSpec, at node: YAMLNode) {
        guard case .recorder(let setting) = target else { return }
        switch spec.kind {
        case .slider(let values):
            guard setting.slides else {
                reader.error(node, "\(target) is a choice: drive it with a picker")
                return
            }
            let allowed: ClosedRange<Double>? =
                switch setting {
                case .zoom: RigBook.zoomRange
                case .preroll: 0...RecorderSettingValues.prerollLimit
                case .prompterSpeed: Prompter.speeds
                default: nil
                }
            switch (setting, values) {
            case (.fps, .explicit(let list)) where list.contains { value in !FrameRate.offered.contains { $0.value == value } }:
                reader.error(node, "recorder:fps takes the values \(Self.offeredRates)")
            case (.fps, .continuous), (.fps, .stepped):
                reader.error(
                    node,
                    "recorder:fps takes the values \(Self.offeredRates): give it a list, such as values: [25, 50], or no range")
            case (_, .continuous(let range)), (_, .stepped(let range, _)):
                if let allowed, !(allowed.contains(range.lowerBound) && allowed.contains(range.upperBound)) {
                    reader.error(
                        node,
                        "\(target) ranges within \(NumberText.format(allowed.lowerBound)) and \(NumberText.format(allowed.upperBound))"
                    )
                }
            case (_, .explicit(let list)):
                if let allowed, list.contains(where: { !allowed.contains($0) }) {
                    reader.error(
                        node,
                        "\(target) ranges within \(NumberText.format(allowed.lowerBound)) and \(NumberText.format(allowed.upperBound))"
                    )
                }
            default: break
            }
        case .picker(let titles):
            guard setting.picks else {
                reader.error(node, "\(target) is a range: drive it with a slider")
                return
            }
            let count = RecorderSettingValues.choices(setting, rate: cameraRate).count
            if let titles, titles.count != count {
                reader.error(node, "\(target) has \(count) choice\(count == 1 ? "" : "s"), but titles lists \(titles.count)")
            }
        default: break
        }
    }

    private mutating func parseSliderValues(_ node: YAMLNode, _ value: (String) -> YAMLNode?) -> ControlSpec.SliderValues?? {
        let limit = -Self.controlLimit...Self.controlLimit
        if let valuesNode = value("values") {
            guard let items = reader.sequence(valuesNode, "values") else { return nil }
            let numbers = items.compactMap { reader.number($0, "each value", in: limit) }
            guard numbers.count == items.count else { return nil }
            guard !numbers.isEmpty else {
                reader.error(valuesNode, "values lists nothing")
                return nil
            }
            if value("min") != nil || value("max") != nil || value("step") != nil {
                reader.error(valuesNode, "a slider has either values or min and max, not both")
            }
            return .some(.explicit(numbers))
        }
        let minNode = value("min"), maxNode = value("max")
        if minNode == nil, maxNode == nil, value("step") == nil { return .some(nil) }
        guard let minNode, let maxNode else {
            reader.error(node, "a slider needs both min and max, a list of values, or none of them for its target's own range")
            return nil
        }
        guard let low = reader.number(minNode, "min", in: limit), let high = reader.number(maxNode, "max", in: limit)
        else { return nil }
        guard low < high else {
            reader.error(maxNode, "max must be greater than min")
            return nil
        }
        guard let stepNode = value("step") else { return .some(.continuous(low...high)) }
        guard let step = reader.number(stepNode, "step", in: limit) else { return nil }
        guard step > 0 else {
            reader.error(stepNode, "step must be greater than 0")
            return nil
        }
        return .some(.stepped(low...high, step: step))
    }
}

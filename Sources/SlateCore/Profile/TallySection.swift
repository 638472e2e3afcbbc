import SlateYAML

/// The `tally` section: lights that follow the rig's state.
extension ProfileParser {
    mutating func parseTally(_ node: YAMLNode, inputs: [InputSpec]) -> TallySpec? {
        guard let pairs = reader.mapping(node, "tally") else { return nil }
        reader.checkKeys(pairs, allowed: ["error-hold", "outputs"], in: "tally")
        var spec = TallySpec()
        for (key, _, value) in pairs {
            switch key {
            case "error-hold":
                guard let hold = reader.duration(value, "tally.error-hold") else { continue }
                if TallySpec.errorHolds.contains(hold) {
                    spec.errorHold = hold
                } else {
                    reader.error(value, "tally.error-hold must be from 1s to 600s")
                }
            case "outputs":
                guard let items = reader.sequence(value, "tally.outputs") else { continue }
                if items.count > TallySpec.outputLimit {
                    reader.error(value, "tally.outputs lists \(items.count) lights; at most \(TallySpec.outputLimit)")
                    continue
                }
                spec.outputs = items.enumerated().compactMap { parseTallyOutput($1, "tally.outputs[\($0)]", inputs: inputs) }
                checkBusylightsApart(spec.outputs, value)
            default: break
            }
        }
        return spec
    }

    private mutating func parseTallyOutput(_ node: YAMLNode, _ what: String, inputs: [InputSpec]) -> TallyOutput? {
        guard let pairs = reader.mapping(node, what) else { return nil }
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        let states = TallyState.allCases.map(\.rawValue)
        let target: TallyTarget
        if let led = value("led") {
            reader.checkKeys(pairs, allowed: ["led", "input"] + states, in: what)
            guard let name = reader.string(led, "\(what).led") else { return nil }
            guard let code = EventCodes.code(named: name), code.type == 0x11 else {
                reader.error(led, "\(what).led must be an LED code such as LED_SCROLLL or LED_CAPSL, not '\(name)'")
                return nil
            }
            guard let inputNode = value("input"), let input = reader.string(inputNode, "\(what).input") else {
                reader.error(node, "\(what) needs an input: the profile's input whose devices have the LED")
                return nil
            }
            guard inputs.contains(where: { $0.name == input }) else {
                reader.error(inputNode, "\(what).input '\(input)' is not one of the profile's inputs")
                return nil
            }
            target = .led(input: input, code: code.code)
        } else if let chip = value("gpio") {
            reader.checkKeys(pairs, allowed: ["gpio", "line", "active-low"] + states, in: what)
            guard let name = reader.string(chip, "\(what).gpio"), Self.isChipName(name) else {
                reader.error(chip, "\(what).gpio must be a GPIO chip such as gpiochip0 or /dev/gpiochip0")
                return nil
            }
            guard let lineNode = value("line") else {
                reader.error(node, "\(what) needs a line: the chip's line number the light is on")
                return nil
            }
            guard let line = reader.integer(lineNode, "\(what).line", in: 0...511) else { return nil }
            let activeLow = value("active-low").flatMap { reader.bool($0, "\(what).active-low") } ?? false
            target = .gpio(chip: name, line: line, activeLow: activeLow)
        } else if let model = value("busylight") {
            reader.checkKeys(pairs, allowed: ["busylight", "device"] + states, in: what)
            let models = [("any", BusylightModel?.none)] + BusylightModel.allCases.map { ($0.rawValue, Optional($0)) }
            guard let chosen = reader.choice(model, "\(what).busylight", models) else { return nil }
            var device: String?
            if let deviceNode = value("device") {
                device = reader.string(deviceNode, "\(what).device")
                if let path = device, !(path.hasPrefix("/dev/hidraw") && path.count <= 32) {
                    reader.error(deviceNode, "\(what).device must be a hidraw node such as /dev/hidraw0")
                    return nil
                }
            }
            target = .busylight(model: chosen, device: device)
        } else {
            reader.error(node, "\(what) needs one of led, gpio or busylight")
            return nil
        }
        var output = TallyOutput(target: target)
        for (key, _, patternNode) in pairs {
            guard let state = TallyState(rawValue: key), let text = reader.string(patternNode, "\(what).\(key)") else { continue }
            let fallback = target.defaultPattern(in: state)
            let color: TallyColor =
                switch fallback {
                case .on(let color), .blink(let color): color
                case .off: state == .standby ? .green : .red
                }
            guard let pattern = TallyPattern(text, color: color) else {
                reader.error(
                    patternNode,
                    "\(what).\(key) must be off, on or blink, with a colour for a busylight (on red, blink ff8000), not '\(text)'"
                )
                continue
            }
            if !target.hasColors, text.contains(" ") {
                reader.error(patternNode, "\(what).\(key): \(target) shows no colours; write on, off or blink")
                continue
            }
            output.patterns[state] = pattern
        }
        return output
    }

    /// Two outputs must not drive one light: busylights found by model must
    /// be of different models (and `any` the only one found so), and no node,
    /// and no GPIO line, is named twice.
    private mutating func checkBusylightsApart(_ outputs: [TallyOutput], _ node: YAMLNode) {
        let found = outputs.compactMap { output -> BusylightModel?? in
            guard case .busylight(let model, nil) = output.target else { return nil }
            return .some(model)
        }
        if found.count > 1, found.contains(where: { $0 == nil }) || Set(found.compactMap { $0 }).count < found.count {
            reader.error(
                node, "tally.outputs: two busylights could be one light; give each a device (/dev/hidrawN) or another model")
        }
        let named = outputs.compactMap { output -> String? in
            switch output.target {
            case .busylight(_, let device?): device
            case .gpio(let chip, let line, _): "line \(line) of \(chip.hasPrefix("/dev/") ? String(chip.dropFirst(5)) : chip)"
            default: nil
            }
        }
        if let twice = named.first(where: { name in named.filter { $0 == name }.count > 1 }) {
            reader.error(node, "tally.outputs names \(twice) twice")
        }
    }

    /// `gpiochipN` or `/dev/gpiochipN`.
    static func isChipName(_ name: String) -> Bool {
        let bare = name.hasPrefix("/dev/") ? String(name.dropFirst(5)) : name
        guard bare.hasPrefix("gpiochip") else { return false }
        let number = bare.dropFirst(8)
        return !number.isEmpty && number.count <= 3 && number.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

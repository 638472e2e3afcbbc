import SlateYAML

/// Loads a profile from YAML text, validating it strictly: unknown keys,
/// unknown codes and actions, bad durations, a button bound twice, recursive
/// macros and an empty rig are errors, all reported with their positions.
public enum ProfileLoader {
    /// The largest profile read, in bytes.
    public static let sizeLimit = 1 << 20

    static let sections = [
        "description", "inputs", "capture", "macros", "camera", "controls", "sounds", "audio", "http", "prompter", "mqtt", "obs",
        "tally",
    ]

    public static func load(_ text: String, file: String) -> Result<Profile, ProfileErrors> {
        var loader = ProfileParser(file: file)
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch {
            return .failure(ProfileErrors(diagnostics: [yamlDiagnostic(error, file: file)]))
        }
        guard let root else {
            return .failure(
                ProfileErrors(diagnostics: [
                    Diagnostic(file: file, line: 1, column: 1, message: "the profile is empty: a rig needs inputs")
                ]))
        }
        let profile = loader.parse(root)
        let diagnostics = loader.reader.diagnostics.sorted { ($0.line, $0.column) < ($1.line, $1.column) }
        return diagnostics.isEmpty ? .success(profile) : .failure(ProfileErrors(diagnostics: diagnostics))
    }

    static func yamlDiagnostic(_ error: YAMLError, file: String) -> Diagnostic {
        let message =
            switch error.kind {
            case .duplicateKeys, .tooDeep, .tooLarge: error.problem
            default: "YAML: \(error.problem)"
            }
        return Diagnostic(file: file, line: error.mark.line, column: error.mark.column, message: message)
    }
}

/// An action before macros are expanded.
enum RawAction {
    case action(Action)
    case macro(String, YAMLNode)
}

struct ProfileParser {
    /// The largest `zoom.step` (one step is a tenth of 1x; 50 steps span 1x to 6x).
    static let zoomStepLimit = 100.0
    /// The highest take number `take.delete` names.
    static let takeNumberLimit = 100_000
    var reader: YAMLReader
    private var sounds = SoundSpec()
    /// The camera section's frame rate, which fps controls offer with its partner.
    var cameraRate = CameraSpec().fps
    var rawMacros: [(name: String, node: YAMLNode, actions: [RawAction])] = []
    var macroNames: Set<String> = []
    /// How many steps each macro expands to (`MacroSection`).
    var macroSizes: [String: Int] = [:]
    /// The macros expanded, which handlers' `rigs NAME` are checked against.
    var expandedMacros: [String: [Step]] = [:]
    /// Where `mqtt.accept-macros` and `accept-programs` were written.
    var acceptNodes: [String: YAMLNode] = [:]
    /// The profile's controls, which `control.set` and `control.reset` name.
    private var controls: [ControlSpec] = []
    /// Whether the profile has a prompter, which `prompter.*` actions need.
    private var hasPrompter = false
    /// Whether the profile joins a broker, which `rigs` and `rig` need.
    var hasMQTT = false
    /// Whether the profile names OBS instances, which `obs` needs.
    var hasOBS = false

    init(file: String) { reader = YAMLReader(file: file) }

    /// A parser for actions that name `profile`'s sounds, controls and macros.
    init(file: String, profile: Profile) {
        reader = YAMLReader(file: file)
        sounds = profile.sounds
        controls = profile.controls
        macroNames = Set(profile.macros.keys)
        hasPrompter = profile.prompter != nil
        hasMQTT = profile.mqtt != nil
        hasOBS = profile.obs != nil
    }

    mutating func parse(_ root: YAMLNode) -> Profile {
        var profile = Profile(
            file: reader.file, inputs: [], capture: CaptureSpec(), macros: [:], camera: CameraSpec(),
            controls: [], controlSettings: ControlSettings(), sounds: SoundSpec())
        guard let top = reader.mapping(root, "a profile") else { return profile }
        reader.checkKeys(top, allowed: ProfileLoader.sections, in: "the profile")
        let section = { (name: String) in top.first { $0.key == name } }

        if let node = section("description") { _ = reader.string(node.value, "description") }
        if let node = section("sounds") { sounds = parseSounds(node.value) }
        profile.sounds = sounds
        if let node = section("camera") { profile.camera = parseCamera(node.value) }
        cameraRate = profile.camera.fps
        if let node = section("audio") { profile.audio = parseAudio(node.value) }
        if let node = section("http") { profile.http = parseHTTP(node.value) }
        if let node = section("prompter") { profile.prompter = parsePrompter(node.value) }
        hasPrompter = profile.prompter != nil
        if let node = section("mqtt") { profile.mqtt = parseMQTT(node.value) }
        hasMQTT = profile.mqtt != nil
        if let node = section("obs") { profile.obs = parseOBS(node.value) }
        hasOBS = profile.obs != nil
        if let node = section("controls") { (profile.controls, profile.controlSettings) = parseControls(node.value) }
        controls = profile.controls
        if let node = section("macros") { declareMacros(node.value) }
        for index in rawMacros.indices {
            let macro = rawMacros[index]
            rawMacros[index].actions = parseActions(macro.node, "macro '\(macro.name)'")
        }
        profile.macros = expandMacros()
        if let mqtt = profile.mqtt { checkAccepted(mqtt, macros: profile.macros) }
        if let node = section("capture") { profile.capture = parseCapture(node.value) }
        if let node = section("inputs") {
            profile.inputs = parseInputs(node.value)
            if profile.inputs.isEmpty { reader.error(node.value, "the rig has no inputs") }
        } else {
            reader.error(root, "the rig has no inputs: add an 'inputs' section")
        }
        if let node = section("tally") { profile.tally = parseTally(node.value, inputs: profile.inputs) }
        checkHandlers(profile, inputsNode: section("inputs")?.value)
        return profile
    }

    // MARK: inputs

    private mutating func parseInputs(_ node: YAMLNode) -> [InputSpec] {
        guard let pairs = reader.mapping(node, "inputs") else { return [] }
        return pairs.compactMap { parseInput(name: $0.key, $0.value) }
    }

    private mutating func parseInput(name: String, _ node: YAMLNode) -> InputSpec? {
        let what = "input '\(name)'"
        guard let pairs = reader.mapping(node, what) else { return nil }
        reader.checkKeys(pairs, allowed: ["match", "bind", "remote", "grab", "debounce"], in: what)
        var input = InputSpec(name: name, match: [], keys: [], axes: [], remote: false, grab: nil)
        for (key, _, value) in pairs {
            switch key {
            case "match": input.match = parseMatch(value, what)
            case "bind": (input.keys, input.axes) = parseBind(value, what)
            case "remote": input.remote = reader.bool(value, "remote") ?? false
            case "grab": input.grab = reader.choice(value, "grab", GrabMode.allCases.map { ($0.rawValue, $0) })
            case "debounce": input.debounce = parseDebounce(value) ?? input.debounce
            default: break
            }
        }
        if !pairs.contains(where: { $0.key == "match" }) {
            reader.error(node, "\(what) has no 'match' rules")
        }
        if !pairs.contains(where: { $0.key == "bind" }) {
            reader.error(node, "\(what) binds nothing: add a 'bind' section")
        }
        return input
    }

    /// `debounce`: a duration up to `InputSpec.debounceLimit`, or 0 (off).
    private mutating func parseDebounce(_ node: YAMLNode) -> Duration? {
        guard let text = reader.string(node, "debounce") else { return nil }
        guard let window = text == "0" ? .zero : DurationText.parse(text) else {
            reader.error(node, "debounce must be a duration such as 25ms, or 0 to turn it off, not '\(text)'")
            return nil
        }
        guard window <= InputSpec.debounceLimit else {
            reader.error(
                node,
                "debounce is at most \(DurationText.format(InputSpec.debounceLimit)), not \(text): a quick second press would be folded into the first"
            )
            return nil
        }
        return window
    }

    private mutating func parseMatch(_ node: YAMLNode, _ what: String) -> [MatchRules] {
        if case .sequence(let alternatives) = node {
            if alternatives.isEmpty { reader.error(node, "match of \(what) lists no alternatives") }
            return alternatives.compactMap { parseMatchRules($0, what) }
        }
        return parseMatchRules(node, what).map { [$0] } ?? []
    }

    private mutating func parseMatchRules(_ node: YAMLNode, _ what: String) -> MatchRules? {
        guard let pairs = reader.mapping(node, "match of \(what)") else { return nil }
        reader.checkKeys(
            pairs, allowed: ["name", "bus", "vendor", "product", "phys", "uniq", "has", "udev"], in: "match of \(what)")
        if pairs.isEmpty { reader.error(node, "match of \(what) needs at least one rule") }
        var rules = MatchRules()
        for (key, _, value) in pairs {
            switch key {
            case "name": rules.name = reader.string(value, "name").map(Glob.init)
            case "phys": rules.phys = reader.string(value, "phys").map(Glob.init)
            case "uniq": rules.uniq = reader.string(value, "uniq").map(Glob.init)
            case "vendor", "product":
                guard let id = reader.integer(value, key, in: 0...0xFFFF).map(UInt16.init) else { break }
                if key == "vendor" { rules.vendor = id } else { rules.product = id }
                if case .scalar(let scalar) = value, !scalar.string.lowercased().hasPrefix("0x"),
                    let field = DecimalID.Field(rawValue: key)
                {
                    rules.decimalIDs.append(
                        DecimalID(field: field, value: id, line: value.mark?.line ?? 1, column: value.mark?.column ?? 1))
                }
            case "bus": rules.bus = parseBus(value)
            case "has":
                for item in reader.strings(value, "has") ?? [] {
                    if let code = EventCodes.code(named: item) {
                        rules.has.append(code)
                    } else {
                        reader.error(value, "unknown event code '\(item)' in has")
                    }
                }
            case "udev":
                for (property, _, glob) in reader.mapping(value, "udev") ?? [] {
                    if let text = reader.string(glob, "udev property \(property)") {
                        rules.udev.append((property, Glob(text)))
                    }
                }
            default: break
            }
        }
        return rules
    }

    private mutating func parseBus(_ node: YAMLNode) -> UInt16? {
        guard let text = reader.string(node, "bus") else { return nil }
        if let bus = Bus.value(named: text) { return bus }
        if text.first?.isASCIIDigit == true {
            return reader.integer(node, "bus", in: 0...0xFFFF).map(UInt16.init)
        }
        reader.error(node, "unknown bus '\(text)' (expected a number or \(YAMLReader.list(Bus.names.map(\.name))))")
        return nil
    }

    private mutating func parseBind(_ node: YAMLNode, _ what: String)
        -> ([(code: UInt16, binding: KeyBinding)], [(code: UInt16, binding: AxisBinding)])
    {
        var keys: [(code: UInt16, binding: KeyBinding)] = []
        var axes: [(code: UInt16, binding: AxisBinding)] = []
        var seen: [EventCode: YAMLNode] = [:]
        guard let pairs = reader.mapping(node, "bind of \(what)") else { return ([], []) }
        if pairs.isEmpty { reader.error(node, "\(what) binds nothing") }
        for (name, keyNode, value) in pairs {
            guard let code = EventCodes.code(named: name) else {
                reader.error(keyNode, "unknown event code '\(name)'")
                continue
            }
            if let first = seen[code] {
                let at = first.mark.map { " (line \($0.line))" } ?? ""
                reader.error(keyNode, "\(name) is bound twice: \(code.name) is already bound\(at)")
                continue
            }
            seen[code] = keyNode
            switch code.type {
            case EventType.key:
                if case .scalar(let scalar) = value, let role = Role(rawValue: scalar.string) {
                    keys.append((code.code, .role(role)))
                } else if isControlBinding(value) {
                    keys.append((code.code, .control))
                } else if case .scalar(let scalar) = value, scalar.string.hasPrefix("preset ") {
                    guard let slot = Int(String(scalar.string.dropFirst(7)).trimmingSpaces), PresetFile.slots.contains(slot)
                    else {
                        reader.error(value, "preset takes a slot from 1 to 99, such as preset 1")
                        continue
                    }
                    keys.append((code.code, .preset(slot)))
                } else {
                    keys.append((code.code, .actions(handlerSteps(value, name))))
                }
            case EventType.rel:
                if case .scalar(let scalar) = value, Role(rawValue: scalar.string) != nil {
                    reader.error(value, "\(name) is an axis, not a button: bind it to an action such as zoom.step")
                } else if isControlBinding(value) {
                    axes.append((code.code, .control))
                } else {
                    axes.append((code.code, .actions(handlerSteps(value, name))))
                }
            default:
                reader.error(keyNode, "\(name) cannot be bound: only buttons (EV_KEY) and axes (EV_REL) can")
            }
        }
        return (keys, axes)
    }

    /// `control`: the button or axis drives the capture controls, which the profile must have.
    private mutating func isControlBinding(_ value: YAMLNode) -> Bool {
        guard case .scalar(let scalar) = value, scalar.string == "control" else { return false }
        if controls.isEmpty { reader.error(value, "control binds the capture controls, but the profile has no controls section") }
        return true
    }

    // MARK: capture

    private mutating func parseCapture(_ node: YAMLNode) -> CaptureSpec {
        var capture = CaptureSpec()
        guard let pairs = reader.mapping(node, "capture") else { return capture }
        reader.checkKeys(pairs, allowed: ["hold-threshold", "double-window"] + Role.allCases.map(\.rawValue), in: "capture")
        for (key, _, value) in pairs {
            switch key {
            case "hold-threshold":
                capture.holdThreshold = reader.duration(value, "hold-threshold") ?? capture.holdThreshold
            case "double-window":
                capture.doubleWindow = reader.duration(value, "double-window") ?? capture.doubleWindow
            default:
                if let role = Role(rawValue: key) { capture.handlers[role] = parseHandlers(value, role) }
            }
        }
        return capture
    }

    private mutating func parseHandlers(_ node: YAMLNode, _ role: Role) -> [Gesture: [Step]] {
        var handlers: [Gesture: [Step]] = [:]
        guard let pairs = reader.mapping(node, "capture.\(role.rawValue)") else { return handlers }
        reader.checkKeys(pairs, allowed: Gesture.allCases.map(\.rawValue), in: "capture.\(role.rawValue)")
        for (key, keyNode, value) in pairs {
            guard let gesture = Gesture(rawValue: key) else { continue }
            handlers[gesture] = handlerSteps(value, "\(role.rawValue) \(key)")
            if gesture == .release, !pairs.contains(where: { $0.key == Gesture.hold.rawValue }) {
                reader.error(keyNode, "capture.\(role.rawValue) has a release handler but no hold handler")
            }
        }
        return handlers
    }

    /// Every bound role must reach some handlers (after the secondary fallback).
    private mutating func checkHandlers(_ profile: Profile, inputsNode: YAMLNode?) {
        guard case .mapping(let inputs)? = inputsNode else { return }
        for (_, inputNode) in inputs {
            guard case .mapping(let input)? = Optional(inputNode), case .mapping(let bind)? = input["bind"]
            else { continue }
            for (keyNode, value) in bind {
                guard case .scalar(let scalar) = value, let role = Role(rawValue: scalar.string),
                    EventCodes.code(named: keyNode.string ?? "")?.type == EventType.key
                else { continue }
                let handling = profile.capture.handlingRole(for: role)
                if (profile.capture.handlers[handling] ?? [:]).isEmpty {
                    reader.error(
                        value,
                        "\(keyNode.string ?? "") is bound to \(role.rawValue), but capture has no \(handling.rawValue) handlers"
                    )
                }
            }
        }
    }

    // MARK: actions and macros

    /// An action, or a list of actions.
    mutating func parseActions(_ node: YAMLNode, _ what: String) -> [RawAction] {
        if case .sequence(let items) = node {
            if items.isEmpty { reader.error(node, "\(what) lists no actions") }
            return items.compactMap { parseAction($0, what) }
        }
        return parseAction(node, what).map { [$0] } ?? []
    }

    private mutating func parseAction(_ node: YAMLNode, _ what: String) -> RawAction? {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string.trimmingSpaces
            let parts = text.split(separator: " ", maxSplits: 1)
            let name = parts.first.map(String.init) ?? ""
            let argument = parts.count > 1 ? String(parts[1]).trimmingSpaces : nil
            if name.hasPrefix("control."), controls.isEmpty, Action.bareNames[name] != nil || Action.argumentNames.contains(name)
            {
                reader.error(node, "\(name) needs a controls section")
                return nil
            }
            if name.hasPrefix("prompter."), !hasPrompter, Action.bareNames[name] != nil || Action.argumentNames.contains(name) {
                reader.error(node, "\(name) needs a prompter section")
                return nil
            }
            if argument == nil, let action = Action.bareNames[name] { return .action(action) }
            if argument == nil, macroNames.contains(name) { return .macro(name, node) }
            if Action.argumentNames.contains(name) {
                return action(name, argument.map { .scalar(.init($0, .plain, scalar.mark)) }, node)
            }
            if Action.bareNames[name] != nil {
                reader.error(node, "\(name) takes no argument")
                return nil
            }
            let known = Array(Action.bareNames.keys) + Array(Action.argumentNames) + Array(macroNames)
            reader.error(node, "unknown action or macro '\(text)' in \(what)" + NearestName.hint(for: name, among: known))
            return nil
        case .mapping(let mapping) where mapping.count == 1:
            let (keyNode, value) = mapping.first!
            let name = keyNode.string ?? ""
            if name.hasPrefix("control."), controls.isEmpty, Action.argumentNames.contains(name) {
                reader.error(keyNode, "\(name) needs a controls section")
                return nil
            }
            guard Action.argumentNames.contains(name) else {
                reader.error(
                    keyNode,
                    "unknown action '\(name)' in \(what)" + NearestName.hint(for: name, among: Action.argumentNames)
                        + " (actions with arguments: \(YAMLReader.list(Action.argumentNames.sorted())))"
                )
                return nil
            }
            if name.hasPrefix("prompter."), !hasPrompter {
                reader.error(keyNode, "\(name) needs a prompter section")
                return nil
            }
            return action(name, value, node)
        default:
            reader.error(
                node,
                "each action of \(what) must be a name such as take.toggle or a one-key mapping such as {exec: [program, argument]}"
            )
            return nil
        }
    }

    private mutating func action(_ name: String, _ argument: YAMLNode?, _ node: YAMLNode) -> RawAction? {
        if name == "zoom.step", argument == nil { return .action(.zoomStep(nil)) }
        if name == "control.adjust", argument == nil { return .action(.control(.adjust(nil))) }
        guard let argument else {
            reader.error(node, "\(name) needs an argument")
            return nil
        }
        switch name {
        case "zoom.step":
            return reader.number(argument, "zoom.step", in: -Self.zoomStepLimit...Self.zoomStepLimit).map {
                .action(.zoomStep($0))
            }
        case "zoom.set":
            guard let factor = reader.number(argument, "zoom.set") else { return nil }
            guard RigBook.zoomRange.contains(factor) else {
                reader.error(argument, "zoom.set must be within 1 and 6, not \(factor)")
                return nil
            }
            return .action(.zoomSet(factor))
        case "wait": return reader.duration(argument, "wait").map { .action(.wait($0)) }
        case "take.delete":
            guard let text = reader.string(argument, "take.delete") else { return nil }
            guard let choice = TakeChoice.parse(text, numberLimit: Self.takeNumberLimit) else {
                reader.error(
                    argument,
                    "take.delete names a take by its number (1 to \(Self.takeNumberLimit)) or its file (take-20261121-103841-0003.mp4), not '\(text)'"
                )
                return nil
            }
            return .action(.takeDelete(choice))
        case "take.undelete":
            guard let text = reader.string(argument, "take.undelete") else { return nil }
            guard case .file(let name) = TakeChoice.parse(text, numberLimit: 1) else {
                reader.error(
                    argument, "take.undelete names a take in the trash by its file (take-20261121-103841-0003.mp4), not '\(text)'"
                )
                return nil
            }
            return .action(.takeUndelete(name))
        case "take.mark":
            guard let name = reader.string(argument, "take.mark") else { return nil }
            guard TakeMarker.isName(name) else {
                reader.error(
                    argument,
                    "take.mark's name is 1 to \(TakeMarker.nameLimit) characters without control characters, not '\(name.prefix(80))'"
                )
                return nil
            }
            return .action(.takeMark(name))
        case "takes.export":
            guard let name = reader.string(argument, "takes.export") else { return nil }
            guard let filter = ExportFilter(rawValue: name) else {
                reader.error(
                    argument,
                    "takes.export's filter is one of \(YAMLReader.list(ExportFilter.allCases.map(\.rawValue))), not '\(name)'")
                return nil
            }
            return .action(.takesExport(filter))
        case "prompter.back":
            guard let seconds = reader.number(argument, "prompter.back", in: 0.1...600) else { return nil }
            return .action(.prompter(.back(.microseconds(Int64((seconds * 1_000_000).rounded())))))
        case "control.adjust":
            guard let detents = reader.integer(argument, "control.adjust", in: -100...100) else { return nil }
            guard detents != 0 else {
                reader.error(argument, "control.adjust moves by a number of detents other than 0")
                return nil
            }
            return .action(.control(.adjust(detents)))
        case "control.set", "control.reset":
            return controlAction(name, argument)
        case "preset.load", "preset.save":
            guard let slot = reader.integer(argument, name, in: PresetFile.slots) else { return nil }
            return .action(name == "preset.load" ? .presetLoad(slot) : .presetSave(slot))
        case "rigs", "rig":
            return rigsAction(name, argument)
        case "obs":
            return obsAction(argument)
        case "sound":
            guard let sound = reader.string(argument, "sound") else { return nil }
            guard sounds.isKnown(sound) else {
                reader.error(
                    argument,
                    "unknown sound '\(sound)' (built in: \(YAMLReader.list(SoundSpec.builtIn)); others need an entry in sounds.files)"
                )
                return nil
            }
            return .action(.sound(sound))
        case "exec":
            guard case .sequence = argument else {
                reader.error(argument, "exec takes a list, never a shell string: exec: [program, argument, ...]")
                return nil
            }
            guard let argv = reader.strings(argument, "exec"), !argv.isEmpty, !argv[0].isEmpty else {
                if case .sequence(let items) = argument, items.isEmpty {
                    reader.error(argument, "exec needs a program")
                }
                return nil
            }
            return .action(.exec(argv))
        default:
            return nil
        }
    }

    /// `control.set NAME VALUE` (or `[NAME, VALUE]`), `control.reset NAME`: NAME is one of the profile's controls.
    private mutating func controlAction(_ name: String, _ argument: YAMLNode) -> RawAction? {
        var words: [String]
        if case .sequence = argument {
            words = reader.strings(argument, name) ?? []
        } else {
            guard let text = reader.string(argument, name) else { return nil }
            words = [text]
            if name == "control.set" {
                // The longest control name the text starts with, then the value.
                let names = controls.map(\.name).sorted { $0.count > $1.count }
                if let match = names.first(where: { text.lowercased().hasPrefix($0.lowercased() + " ") }) {
                    words = [String(text.prefix(match.count)), String(text.dropFirst(match.count)).trimmingSpaces]
                } else if let space = text.lastIndex(of: " ") {
                    words = [String(text[..<space]).trimmingSpaces, String(text[text.index(after: space)...])]
                }
            }
        }
        let count = name == "control.set" ? 2 : 1
        guard words.count == count, !words[0].isEmpty else {
            reader.error(
                argument,
                name == "control.set"
                    ? "control.set takes a control's name and a value: control.set Zoom 2, or [White balance, 4600]"
                    : "control.reset takes a control's name")
            return nil
        }
        guard let control = controls.first(where: { $0.name.lowercased() == words[0].lowercased() }) else {
            reader.error(
                argument, "\(name): no control is named '\(words[0])' (controls: \(YAMLReader.list(controls.map(\.name))))")
            return nil
        }
        guard count == 2 else { return .action(.control(.reset(control.name))) }
        let value = words[1]
        switch control.kind {
        case .picker(let titles):
            var choices = titles
            if choices == nil, case .recorder(let setting)? = control.target {
                choices = RecorderSettingValues.choices(setting, rate: cameraRate)
            }
            if let choices, !choices.contains(where: { $0.lowercased() == value.lowercased() }),
                Int(value).map({ !choices.indices.contains($0) }) ?? true
            {
                reader.error(argument, "\(control.name) has no item '\(value)' (items: \(YAMLReader.list(choices)))")
                return nil
            }
        default:
            guard Double(value) != nil else {
                reader.error(argument, "\(control.name) takes a number, not '\(value)'")
                return nil
            }
        }
        return .action(.control(.set(control.name, value)))
    }
}

extension String {
    var trimmingSpaces: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

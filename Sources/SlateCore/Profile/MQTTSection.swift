import SlateYAML

/// The `mqtt` section, and the `rigs` and `rig` actions it allows.
extension ProfileParser {
    mutating func parseMQTT(_ node: YAMLNode) -> MQTTSpec? {
        guard let pairs = reader.mapping(node, "mqtt") else { return nil }
        reader.checkKeys(
            pairs,
            allowed: [
                "broker", "rig", "username", "password-file", "ca-file", "topic-prefix", "start-delay", "keep-alive",
                "accept-macros", "accept-programs",
            ],
            in: "mqtt")
        let value = { (key: String) in pairs.first { $0.key == key }?.value }
        guard let brokerNode = value("broker"), let rigNode = value("rig") else {
            reader.error(node, "mqtt needs broker (mqtt://HOST[:PORT] or mqtts://HOST[:PORT]) and rig (this rig's name)")
            return nil
        }
        guard let brokerText = reader.string(brokerNode, "mqtt.broker"), let rig = reader.string(rigNode, "mqtt.rig") else {
            return nil
        }
        var spec: MQTTSpec
        switch BrokerAddress.parse(brokerText) {
        case .success(let broker): spec = MQTTSpec(broker: broker, rig: rig)
        case .failure(let error):
            reader.error(brokerNode, "mqtt.broker: \(error)")
            return nil
        }
        if let problem = MQTTSpec.rigNameProblem(rig) { reader.error(rigNode, "mqtt.rig: \(problem)") }
        if let node = value("username") { spec.username = reader.string(node, "mqtt.username") }
        if let node = value("password-file") { spec.passwordFile = reader.string(node, "mqtt.password-file") }
        if let node = value("ca-file") { spec.caFile = reader.string(node, "mqtt.ca-file") }
        if spec.caFile != nil, !spec.broker.tls {
            reader.error(value("ca-file"), "mqtt.ca-file is for an mqtts:// broker; \(spec.broker) is not encrypted")
        }
        if let node = value("topic-prefix"), let prefix = reader.string(node, "mqtt.topic-prefix") {
            if let problem = RigTopics.prefixProblem(prefix) { reader.error(node, "mqtt.topic-prefix: \(problem)") }
            spec.topicPrefix = prefix
        }
        if let node = value("start-delay"), let delay = reader.duration(node, "mqtt.start-delay") {
            if delay > .seconds(5) { reader.error(node, "mqtt.start-delay is at most 5s") }
            spec.startDelay = delay
        }
        if let node = value("keep-alive"), let keepAlive = reader.duration(node, "mqtt.keep-alive") {
            if keepAlive < .seconds(5) || keepAlive > .seconds(600) {
                reader.error(node, "mqtt.keep-alive is from 5s to 600s")
            }
            spec.keepAlive = keepAlive
        }
        for (key, keyPath) in [("accept-macros", \MQTTSpec.acceptedMacros), ("accept-programs", \MQTTSpec.acceptedPrograms)] {
            guard let node = value(key), let names = reader.strings(node, "mqtt.\(key)") else { continue }
            spec[keyPath: keyPath] = Set(names)
            acceptNodes[key] = node
        }
        return spec
    }

    /// Checks `accept-macros` and `accept-programs` against the expanded
    /// macros: each names a macro; none sends on; one that runs a program
    /// is in both lists, and `accept-programs` lists only such macros.
    mutating func checkAccepted(_ spec: MQTTSpec, macros: [String: [Step]]) {
        for (key, names) in [("accept-macros", spec.acceptedMacros), ("accept-programs", spec.acceptedPrograms)] {
            guard let node = acceptNodes[key] else { continue }
            for name in names.sorted() {
                guard let steps = macros[name] else {
                    reader.error(node, "mqtt.\(key): '\(name)' is not a macro of this profile")
                    continue
                }
                if steps.contains(where: \.action.sendsOn) {
                    reader.error(node, "mqtt.\(key): '\(name)' sends on (rigs or rig), which no command from another rig may do")
                } else if key == "accept-macros", steps.contains(where: \.action.runsProgram),
                    !spec.acceptedPrograms.contains(name)
                {
                    reader.error(
                        node,
                        "mqtt.accept-macros: '\(name)' runs a program: list it in mqtt.accept-programs too to let other rigs run it"
                    )
                } else if key == "accept-programs", !steps.contains(where: \.action.runsProgram) {
                    reader.error(node, "mqtt.accept-programs: '\(name)' runs no program; list it in accept-macros only")
                } else if key == "accept-programs", !spec.acceptedMacros.contains(name) {
                    reader.error(node, "mqtt.accept-programs: '\(name)' is not in mqtt.accept-macros")
                }
            }
        }
    }

    /// `rigs ACTION` or `rig NAME ACTION`: ACTION is any action but programs and
    /// sending on; a name this rig knows as an action is checked here, any
    /// other is taken for a macro of the rigs that receive it.
    mutating func rigsAction(_ name: String, _ argument: YAMLNode) -> RawAction? {
        guard hasMQTT else {
            reader.error(argument, "\(name) needs an mqtt section (the broker the rigs share)")
            return nil
        }
        guard let text = reader.string(argument, name)?.trimmingSpaces else { return nil }
        var target = RigsAction.Target.every
        var actionText = text
        if name == "rig" {
            let words = text.split(separator: " ", maxSplits: 1)
            guard words.count == 2 else {
                reader.error(argument, "rig takes a rig's name and an action: rig cam-b take.start")
                return nil
            }
            let rig = String(words[0])
            if let problem = MQTTSpec.rigNameProblem(rig) {
                reader.error(argument, "rig: \(problem)")
                return nil
            }
            target = .rig(rig)
            actionText = String(words[1]).trimmingSpaces
        }
        let first = actionText.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        guard !actionText.isEmpty, actionText.count <= ActionText.limit else {
            reader.error(argument, "\(name) needs an action of at most \(ActionText.limit) characters, such as take.start")
            return nil
        }
        guard !RigsAction.refusedNames.contains(first) else {
            reader.error(
                argument, "\(name) cannot send \(first): a rig runs programs only from its own profile, and does not send on")
            return nil
        }
        let checked = !first.hasPrefix("control.") && !first.hasPrefix("prompter.")
        if checked, Action.bareNames[first] != nil || Action.argumentNames.contains(first) {
            let before = reader.diagnostics.count
            _ = parseActions(.scalar(.init(actionText, .plain, argument.mark)), "\(name)")
            if reader.diagnostics.count > before { return nil }
        }
        return .action(.rigs(RigsAction(target: target, text: actionText)))
    }
}

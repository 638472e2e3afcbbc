import SlateYAML

/// The `macros` section: names declared, calls expanded into steps, within
/// budgets that keep a profile's cost bounded whoever wrote it: at most
/// `macroLimit` macros, calls nested at most `nestingLimit` deep, and at most
/// `stepLimit` steps in any macro or handler once expanded.
extension ProfileParser {
    /// The most macros a profile may declare.
    public static let macroLimit = 1000
    /// The deepest macro calls may nest (a macro calling none is 1 deep).
    public static let nestingLimit = 16
    /// The most steps a macro or handler may expand to.
    public static let stepLimit = 1000

    mutating func declareMacros(_ node: YAMLNode) {
        for (name, keyNode, value) in reader.mapping(node, "macros") ?? [] {
            if Action.bareNames[name] != nil || Action.argumentNames.contains(name) {
                reader.error(keyNode, "macro '\(name)' has the name of an action")
                continue
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }),
                !name.contains(" ")
            else {
                reader.error(keyNode, "macro name '\(name)' may hold only letters, digits, '-', '_' and '.'")
                continue
            }
            guard rawMacros.count < Self.macroLimit else {
                reader.error(keyNode, "a profile holds at most \(Self.macroLimit) macros")
                return
            }
            macroNames.insert(name)
            rawMacros.append((name, value, []))
        }
    }

    /// A handler's actions, expanded: within the step budget, and not
    /// sending to the rigs a macro that itself sends on.
    mutating func handlerSteps(_ node: YAMLNode, _ what: String) -> [Step] {
        let actions = parseActions(node, what)
        let count = stepCount(actions)
        guard count <= Self.stepLimit else {
            reader.error(node, "\(what) expands to \(Self.countText(count)) steps, more than \(Self.stepLimit)")
            return []
        }
        let steps = expand(actions, macro: nil)
        checkSendingOn(steps, node, what)
        return steps
    }

    /// Reports recursion, nesting and size past the budgets, then expands every macro.
    mutating func expandMacros() -> [String: [Step]] {
        var calls: [String: [(String, YAMLNode)]] = [:]
        for macro in rawMacros {
            calls[macro.name] = macro.actions.compactMap {
                if case .macro(let callee, let node) = $0 { return (callee, node) }
                return nil
            }
        }
        var depths: [String: Int?] = [:]
        var refused: Set<String> = []
        for macro in rawMacros {
            guard let depth = depth(of: macro.name, calls: calls, known: &depths) else {
                if let path = cycle(from: macro.name, calls: calls),
                    let site = calls[macro.name]?.first(where: { $0.0 == path[1] })
                {
                    reader.error(site.1, "macro '\(macro.name)' is recursive: \(path.joined(separator: " -> "))")
                    refused.insert(macro.name)
                }
                continue
            }
            if depth > Self.nestingLimit {
                reader.error(macro.node, "macro '\(macro.name)' nests macro calls \(depth) deep, more than \(Self.nestingLimit)")
                refused.insert(macro.name)
            }
        }
        if !refused.isEmpty { rawMacros.removeAll { refused.contains($0.name) } }
        for macro in rawMacros where stepCount(macro.actions) > Self.stepLimit {
            reader.error(
                macro.node,
                "macro '\(macro.name)' expands to \(Self.countText(stepCount(macro.actions))) steps, more than \(Self.stepLimit)")
            refused.insert(macro.name)
        }
        if !refused.isEmpty { rawMacros.removeAll { refused.contains($0.name) } }
        for macro in rawMacros { expandedMacros[macro.name] = expand(macro.actions, macro: macro.name) }
        for macro in rawMacros { checkSendingOn(expandedMacros[macro.name] ?? [], macro.node, "macro '\(macro.name)'") }
        return expandedMacros
    }

    /// A `rigs NAME` step whose NAME is a macro here that sends on itself
    /// would go round the rigs for ever: every rig refuses to run it, so the
    /// profile says so now.
    private mutating func checkSendingOn(_ steps: [Step], _ node: YAMLNode, _ what: String) {
        for step in steps {
            guard case .rigs(let action) = step.action else { continue }
            let name = action.text.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
            if let body = expandedMacros[name], body.contains(where: \.action.sendsOn) {
                reader.error(
                    node,
                    "\(what) sends \(name) to the rigs, but \(name) sends on (rigs or rig) itself, which no rig runs from a command"
                )
                return
            }
        }
    }

    /// How deep calls nest below `name` (1: it calls no macro); nil on a cycle.
    private func depth(of name: String, calls: [String: [(String, YAMLNode)]], known: inout [String: Int?]) -> Int? {
        if let depth = known[name] { return depth }
        known[name] = .some(nil)
        var deepest = 0
        for (callee, _) in calls[name] ?? [] where calls[callee] != nil {
            guard let depth = depth(of: callee, calls: calls, known: &known) else { return nil }
            deepest = max(deepest, depth)
            if deepest > Self.nestingLimit { break }
        }
        known[name] = deepest + 1
        return deepest + 1
    }

    /// How many steps `actions` expand to, saturating far past the budget.
    private mutating func stepCount(_ actions: [RawAction]) -> Int {
        var total = 0
        for action in actions {
            switch action {
            case .action: total += 1
            case .macro(let name, _):
                guard let body = rawMacros.first(where: { $0.name == name }) else { continue }
                let size: Int
                if let known = macroSizes[name] {
                    size = known
                } else {
                    size = stepCount(body.actions)
                    macroSizes[name] = size
                }
                total = min(total + size, Int.max / 2)
            }
        }
        return total
    }

    private static func countText(_ count: Int) -> String { count >= Int.max / 2 ? "billions of" : "\(count)" }

    /// Expands macro calls; each step remembers the innermost macro it came from.
    func expand(_ actions: [RawAction], macro: String?) -> [Step] {
        expand(actions, macro: macro, depth: 0)
    }

    private func expand(_ actions: [RawAction], macro: String?, depth: Int) -> [Step] {
        var steps: [Step] = []
        for action in actions {
            switch action {
            case .action(let action): steps.append(Step(action, macro: macro))
            case .macro(let name, _):
                guard depth < Self.nestingLimit, let body = rawMacros.first(where: { $0.name == name }) else { continue }
                steps += expand(body.actions, macro: name, depth: depth + 1)
            }
        }
        return steps
    }

    /// The shortest call path from `start` back to itself, if any.
    private func cycle(from start: String, calls: [String: [(String, YAMLNode)]]) -> [String]? {
        var queue: [[String]] = [[start]]
        var visited: Set<String> = []
        while !queue.isEmpty {
            let path = queue.removeFirst()
            for (callee, _) in calls[path.last!] ?? [] {
                if callee == start { return path + [callee] }
                if visited.insert(callee).inserted { queue.append(path + [callee]) }
            }
        }
        return nil
    }
}

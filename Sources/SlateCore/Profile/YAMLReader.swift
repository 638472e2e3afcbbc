import SlateYAML

/// Reads a composed YAML tree and collects every error with its position,
/// so a profile reports all its errors at once.
struct YAMLReader {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    mutating func error(_ node: YAMLNode?, _ message: String) {
        let mark = node?.mark
        diagnostics.append(
            Diagnostic(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1, message: message))
    }

    /// The pairs of a mapping whose keys are plain strings; an error (and nil)
    /// when `node` is not a mapping.
    mutating func mapping(_ node: YAMLNode, _ what: String) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let mapping) = node else {
            error(node, "\(what) must be a mapping")
            return nil
        }
        var pairs: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                error(keyNode, "keys in \(what) must be plain names")
                continue
            }
            pairs.append((scalar.string, keyNode, value))
        }
        return pairs
    }

    /// Reports every key not in `allowed`.
    mutating func checkKeys(_ pairs: [(key: String, keyNode: YAMLNode, value: YAMLNode)], allowed: [String], in what: String) {
        for pair in pairs where !allowed.contains(pair.key) {
            error(pair.keyNode, "unknown key '\(pair.key)' in \(what) (expected \(Self.list(allowed)))")
        }
    }

    mutating func sequence(_ node: YAMLNode, _ what: String) -> [YAMLNode]? {
        guard case .sequence(let sequence) = node else {
            error(node, "\(what) must be a list")
            return nil
        }
        return Array(sequence)
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard case .scalar(let scalar) = node else {
            error(node, "\(what) must be a single value")
            return nil
        }
        return scalar.string
    }

    /// A string, or a list of strings.
    mutating func strings(_ node: YAMLNode, _ what: String) -> [String]? {
        if case .scalar(let scalar) = node { return [scalar.string] }
        guard let items = sequence(node, what) else { return nil }
        var result: [String] = []
        for item in items {
            guard let value = string(item, "each entry of \(what)") else { return nil }
            result.append(value)
        }
        return result
    }

    mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let text = string(node, what) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default:
            error(node, "\(what) must be true or false, not '\(text)'")
            return nil
        }
    }

    /// A decimal number, or a 0x-prefixed hex one.
    mutating func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard let text = string(node, what) else { return nil }
        let value: Int? =
            text.hasPrefix("0x") || text.hasPrefix("0X")
            ? Int(text.dropFirst(2), radix: 16) : Int(text, radix: 10)
        guard let value, range.contains(value) else {
            error(node, "\(what) must be a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            return nil
        }
        return value
    }

    /// A finite number, within `range` when one is given.
    mutating func number(_ node: YAMLNode, _ what: String, in range: ClosedRange<Double>? = nil) -> Double? {
        guard let text = string(node, what) else { return nil }
        guard let value = Double(text), value.isFinite else {
            error(node, "\(what) must be a number, not '\(text)'")
            return nil
        }
        if let range, !range.contains(value) {
            error(
                node,
                "\(what) must be a number from \(NumberText.format(range.lowerBound)) to "
                    + "\(NumberText.format(range.upperBound)), not '\(text)'")
            return nil
        }
        return value
    }

    mutating func duration(_ node: YAMLNode, _ what: String, allowZero: Bool = false) -> Duration? {
        guard let text = string(node, what) else { return nil }
        guard let value = DurationText.parse(text), allowZero || value > .zero else {
            error(node, "\(what) must be a duration such as 500ms or 1.5s, not '\(text)'")
            return nil
        }
        return value
    }

    /// One of `choices`, by name.
    mutating func choice<T>(_ node: YAMLNode, _ what: String, _ choices: [(String, T)]) -> T? {
        guard let text = string(node, what) else { return nil }
        guard let match = choices.first(where: { $0.0 == text }) else {
            error(node, "\(what) must be \(Self.list(choices.map(\.0))), not '\(text)'")
            return nil
        }
        return match.1
    }

    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return "nothing"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
    }
}

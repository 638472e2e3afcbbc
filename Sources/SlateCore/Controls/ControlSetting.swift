/// `NAME=VALUE` for a camera control, as `slate controls set` takes it: NAME is
/// the control's key (`white_balance_temperature`), the driver's name in any
/// case, or its id (`0x009a090d`); VALUE an integer or, for a menu, one of its
/// items by name.
public struct ControlSetting: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// `brightness=200`, split at the first `=`; nil without one or with an empty side.
    public init?(_ text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        name = String(text[..<equals])
        value = String(text[text.index(after: equals)...])
        guard !name.isEmpty, !value.isEmpty else { return nil }
    }

    /// The control this setting names among `controls`, and the value it asks for.
    public func resolve(in controls: [CameraControl]) -> Result<(control: CameraControl, value: Int64), ControlSettingError> {
        guard let control = Self.control(named: name, in: controls) else {
            return .failure(.noSuchControl(name, close: Self.closeKeys(to: name, in: controls)))
        }
        guard let number = control.value(named: value) else {
            return .failure(.badValue(control.key, value, items: control.kind == .menu ? control.menu.map(\.name) : []))
        }
        return .success((control, number))
    }

    /// The control `name` names: its id in hex or decimal, else its key or driver's name in any case.
    public static func control(named name: String, in controls: [CameraControl]) -> CameraControl? {
        let id = name.lowercased().hasPrefix("0x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name)
        if let id { return controls.first { $0.id.rawValue == id } }
        let key = CameraControl.key(name)
        return controls.first { $0.key == key }
    }

    /// The keys nearest `name` (a few edits away, or holding it), nearest first; at most five.
    public static func closeKeys(to name: String, in controls: [CameraControl]) -> [String] {
        let wanted = CameraControl.key(name)
        guard !wanted.isEmpty else { return [] }
        let limit = max(2, wanted.count / 3)
        let scored = controls.map(\.key).compactMap { key -> (key: String, distance: Int)? in
            let distance = editDistance(wanted, key)
            if distance <= limit { return (key, distance) }
            return key.contains(wanted) || wanted.contains(key) ? (key, limit + 1) : nil
        }
        return scored.sorted { ($0.distance, $0.key) < ($1.distance, $1.key) }.prefix(5).map(\.key)
    }

    /// Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Why a `NAME=VALUE` does not fit the camera's controls.
public enum ControlSettingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No control has the name; `close` lists the nearest keys.
    case noSuchControl(String, close: [String])
    /// The value is neither an integer nor one of the menu's `items`.
    case badValue(String, String, items: [String])

    public var description: String {
        switch self {
        case .noSuchControl(let name, let close):
            "no control '\(name)'"
                + (close.isEmpty ? "; `slate controls` lists them" : "; did you mean \(close.joined(separator: ", "))?")
        case .badValue(let key, let value, let items):
            items.isEmpty
                ? "\(key) takes an integer, not '\(value)'"
                : "\(key) takes an integer or one of its items (\(items.joined(separator: ", "))), not '\(value)'"
        }
    }
}

extension CameraControl {
    /// The value `text` stands for: an integer, or the index of the menu item so named (any case).
    public func value(named text: String) -> Int64? {
        if let number = Int64(text) { return number }
        guard kind == .menu else { return nil }
        let wanted = CameraControl.key(text)
        guard !wanted.isEmpty else { return nil }
        return menu.first { CameraControl.key($0.name) == wanted }?.index
    }

    /// The name of menu item `value`, when the control is a menu or an integer menu that has it.
    public func menuName(of value: Int64) -> String? {
        menu.first { $0.index == value }?.name
    }
}

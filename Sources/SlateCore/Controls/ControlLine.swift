/// A camera control as JSON: in a control catalog (`slate controls --json`),
/// in `slate cameras --json`, and back. `key` and `backs` are written for
/// readers; reading works them out again from the rest.
///
/// `{"backs":["slider"],"default":128,"flags":["slider"],"id":"0x00980900",
/// "key":"brightness","max":255,"menu":[],"min":0,"name":"Brightness","step":1,
/// "type":"int","value":128}`: `value` is null when the control has none or it
/// cannot be read, `flags` are named as v4l2-ctl names them, `menu` lists
/// `{index, name}` (an integer menu's name is its value).
public struct ControlLine: Codable, Hashable, Sendable {
    public var control: CameraControl
    /// What the control can back; see `CameraControl.backings(among:)`.
    public var backs: [CameraControl.Backing]

    public init(_ control: CameraControl, backs: [CameraControl.Backing]) {
        self.control = control
        self.backs = backs
    }

    /// `control` with what it can back among the camera's `controls`.
    public init(_ control: CameraControl, among controls: [CameraControl]) {
        self.init(control, backs: control.backings(among: controls))
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, key, type, min, max, step, `default`, value, flags, menu, backs
    }

    /// One item of a menu control.
    private struct MenuItem: Codable {
        var index: Int64
        var name: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func corrupt(_ key: CodingKeys, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: message)
        }
        let idText = try container.decode(String.self, forKey: .id)
        guard idText.hasPrefix("0x"), let id = UInt32(idText.dropFirst(2), radix: 16) else {
            throw corrupt(.id, "a control id is hex such as 0x00980900, not '\(idText)'")
        }
        let typeName = try container.decode(String.self, forKey: .type)
        guard let kind = CameraControl.Kind(name: typeName) else {
            throw corrupt(
                .type,
                "'\(typeName)' is no control type; one of int, bool, menu, button, int64, class, string, bitmask, intmenu, compound-N"
            )
        }
        let minimum = try container.decode(Int64.self, forKey: .min)
        let maximum = try container.decode(Int64.self, forKey: .max)
        guard minimum <= maximum else { throw corrupt(.max, "max \(maximum) is below min \(minimum)") }
        var flags: UInt32 = 0
        for name in try container.decodeIfPresent([String].self, forKey: .flags) ?? [] {
            guard let flag = CameraControl.Flag.flag(named: name) else {
                let known = CameraControl.Flag.named.map(\.name).joined(separator: ", ")
                throw corrupt(.flags, "'\(name)' is no control flag; one of \(known), or a bit in hex")
            }
            flags |= flag
        }
        let items = try container.decodeIfPresent([MenuItem].self, forKey: .menu) ?? []
        if let stray = items.first(where: { !(minimum...maximum).contains($0.index) }) {
            throw corrupt(.menu, "menu item \(stray.index) is outside \(minimum)...\(maximum)")
        }
        if Set(items.map(\.index)).count != items.count { throw corrupt(.menu, "a menu item's index appears twice") }
        control = CameraControl(
            id: .init(id), name: try container.decode(String.self, forKey: .name), kind: kind, minimum: minimum,
            maximum: maximum, step: try container.decode(UInt64.self, forKey: .step),
            defaultValue: try container.decode(Int64.self, forKey: .default),
            value: try container.decodeIfPresent(Int64.self, forKey: .value), flags: flags,
            menu: items.map { ($0.index, $0.name) })
        backs = try container.decodeIfPresent([CameraControl.Backing].self, forKey: .backs) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(control.id.description, forKey: .id)
        try container.encode(control.name, forKey: .name)
        try container.encode(control.key, forKey: .key)
        try container.encode(control.kind.name, forKey: .type)
        try container.encode(control.minimum, forKey: .min)
        try container.encode(control.maximum, forKey: .max)
        try container.encode(control.step, forKey: .step)
        try container.encode(control.defaultValue, forKey: .default)
        // Null, not left out, when there is none.
        try container.encode(control.value, forKey: .value)
        try container.encode(control.flagNames, forKey: .flags)
        try container.encode(control.menu.map { MenuItem(index: $0.index, name: $0.name) }, forKey: .menu)
        try container.encode(backs, forKey: .backs)
    }
}

extension CameraControl.Kind {
    /// The kind `name` names (`int`, `intmenu`, `compound-259`); nil for another name.
    public init?(name: String) {
        let simple: [CameraControl.Kind] = [
            .integer, .boolean, .menu, .button, .integer64, .ctrlClass, .string, .bitmask, .integerMenu,
        ]
        if let kind = simple.first(where: { $0.name == name }) {
            self = kind
        } else if name.hasPrefix("compound-"), let type = UInt32(name.dropFirst("compound-".count)),
            CameraControl.Kind(v4l2: type) == .compound(type)
        {
            self = .compound(type)
        } else {
            return nil
        }
    }
}

/// Names of evdev event types and codes, spelled exactly as libevdev spells them.
public enum EventCodes {
    static let typeNames: [UInt16: String] = [0: "EV_SYN", 1: "EV_KEY", 2: "EV_REL"]
    static let table: [EventCode: String] = [
        EventCode(type: 1, code: 114): "KEY_VOLUMEDOWN", EventCode(type: 1, code: 115): "KEY_VOLUMEUP",
        EventCode(type: 1, code: 30): "KEY_A", EventCode(type: 1, code: 48): "KEY_B",
        EventCode(type: 1, code: 46): "KEY_C", EventCode(type: 1, code: 0x100): "BTN_0",
        EventCode(type: 1, code: 0x101): "BTN_1", EventCode(type: 1, code: 200): "KEY_PLAYCD",
        EventCode(type: 1, code: 201): "KEY_PAUSECD", EventCode(type: 1, code: 164): "KEY_PLAYPAUSE",
        EventCode(type: 1, code: 163): "KEY_NEXTSONG", EventCode(type: 2, code: 7): "REL_DIAL",
        EventCode(type: 2, code: 8): "REL_WHEEL", EventCode(type: 2, code: 6): "REL_HWHEEL",
        EventCode(type: 0, code: 0): "SYN_REPORT", EventCode(type: 0, code: 3): "SYN_DROPPED",
    ]
    static let byName: [String: EventCode] = Dictionary(uniqueKeysWithValues: table.map { ($1, $0) })

    /// `libevdev_event_type_get_name`.
    public static func typeName(_ type: UInt16) -> String? { typeNames[type] }

    /// `libevdev_event_code_get_name`.
    public static func name(type: UInt16, code: UInt16) -> String? { table[EventCode(type: type, code: code)] }

    /// The code for a name, aliases included (`BTN_MISC` is `BTN_0`).
    public static func code(named name: String) -> EventCode? { byName[name] }

    /// The type for a name such as `EV_KEY` (`libevdev_event_type_from_name`).
    public static func type(named name: String) -> UInt16? { typeNames.first { $0.value == name }?.key }
}

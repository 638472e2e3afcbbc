/// An evdev event code with its type, e.g. `EV_KEY`/`KEY_VOLUMEDOWN`.
public struct EventCode: Hashable, Sendable, CustomStringConvertible {
    public var type: UInt16
    public var code: UInt16

    public init(type: UInt16, code: UInt16) {
        self.type = type
        self.code = code
    }

    /// The name libevdev gives this code (`libevdev_event_code_get_name`),
    /// or `TYPE_0x1f3` for a code without a name.
    public var name: String {
        EventCodes.name(type: type, code: code)
            ?? (EventCodes.typeName(type).map { String($0.dropFirst(3)) } ?? "EV_\(type)")
            + "_0x" + String(code, radix: 16)
    }

    public var description: String { name }
}

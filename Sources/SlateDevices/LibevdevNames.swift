import CEvdev
import SlateCore
import SlateSystem

/// libevdev's own names for event types and codes, used to check SlateCore's table.
public enum LibevdevNames {
    /// `libevdev_event_type_get_name`.
    public static func typeName(_ type: UInt16) -> String? {
        libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) }
    }

    /// `libevdev_event_code_get_name`.
    public static func name(type: UInt16, code: UInt16) -> String? {
        libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) }
    }

    /// `libevdev_event_type_get_max`: the highest code of a type, or nil for an unknown type.
    public static func maxCode(type: UInt16) -> UInt16? {
        let max = libevdev_event_type_get_max(UInt32(type))
        return max < 0 ? nil : UInt16(max)
    }
}

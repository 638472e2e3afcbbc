extension CameraControl.Flag {
    /// The driver shows it as a slider (`V4L2_CTRL_FLAG_SLIDER`).
    public static let slider: UInt32 = 0x0020
    public static let hasPayload: UInt32 = 0x0100
    /// Setting it does something even to its current value (buttons).
    public static let executeOnWrite: UInt32 = 0x0200
    /// Setting it changes the frame's layout (the driver refuses while streaming).
    public static let modifyLayout: UInt32 = 0x0400
    public static let dynamicArray: UInt32 = 0x0800

    /// Each flag and its name, as v4l2-ctl writes them.
    public static let named: [(flag: UInt32, name: String)] = [
        (disabled, "disabled"), (grabbed, "grabbed"), (readOnly, "read-only"), (update, "update"),
        (inactive, "inactive"), (slider, "slider"), (writeOnly, "write-only"), (volatile, "volatile"),
        (hasPayload, "has-payload"), (executeOnWrite, "execute-on-write"), (modifyLayout, "modify-layout"),
        (dynamicArray, "dynamic-array"),
    ]

    /// The names of the flags set in `flags`, in bit order; a bit without a name as hex (`0x00001000`).
    public static func names(_ flags: UInt32) -> [String] {
        (0..<32).compactMap { bit -> String? in
            let flag = UInt32(1) << bit
            guard flags & flag != 0 else { return nil }
            return named.first { $0.flag == flag }?.name ?? CameraControl.ID(flag).description
        }
    }

    /// The flag a name stands for (`read-only`, or hex such as `0x00001000`); nil for an unknown name.
    public static func flag(named name: String) -> UInt32? {
        if let known = named.first(where: { $0.name == name }) { return known.flag }
        guard name.hasPrefix("0x"), let value = UInt32(name.dropFirst(2), radix: 16), value.nonzeroBitCount == 1 else {
            return nil
        }
        return value
    }
}

extension CameraControl {
    /// `flags` by name (`["inactive", "volatile"]`).
    public var flagNames: [String] { Flag.names(flags) }

    /// The control can be set now: neither inactive nor read-only.
    public var isEnabled: Bool { !isInactive && !isReadOnly }
}

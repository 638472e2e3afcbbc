/// A control the driver says changed (`V4L2_EVENT_CTRL`), as it is after the
/// change: its value, flags and range, and what changed. Changes made through
/// another descriptor than the one subscribed (another program, another
/// control's automatic mode) arrive this way; Slate's own do not.
public struct CameraControlChange: Hashable, Sendable {
    /// What changed (`V4L2_EVENT_CTRL_CH_*`). The driver merges a change into
    /// one not yet dequeued for the same control, so one change may say several.
    public struct What: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let value = What(rawValue: 0x1)
        /// Inactive, read-only, grabbed and the rest (`CameraControl.Flag`).
        public static let flags = What(rawValue: 0x2)
        /// Minimum, maximum, step or default.
        public static let range = What(rawValue: 0x4)
        /// An array control's dimensions.
        public static let dimensions = What(rawValue: 0x8)

        /// `["value", "flags"]`, in that order.
        public var names: [String] {
            [(What.value, "value"), (.flags, "flags"), (.range, "range"), (.dimensions, "dimensions")]
                .filter { contains($0.0) }.map(\.1)
        }
    }

    public var id: CameraControl.ID
    /// The current value (0 for controls without one).
    public var value: Int64
    /// `V4L2_CTRL_FLAG_*`, all of them, changed or not.
    public var flags: UInt32
    public var what: What
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    /// When the driver made the change, on CLOCK_MONOTONIC.
    public var time: Instant

    public init(
        id: CameraControl.ID, value: Int64, flags: UInt32, what: What, minimum: Int64, maximum: Int64, step: UInt64,
        defaultValue: Int64, time: Instant
    ) {
        self.id = id
        self.value = value
        self.flags = flags
        self.what = what
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.time = time
    }

    /// The control can be set now: neither inactive nor read-only.
    public var isEnabled: Bool { flags & (CameraControl.Flag.inactive | CameraControl.Flag.readOnly) == 0 }

    /// `control` as it is after this change: its flags, and its value and range when they changed.
    public func applied(to control: CameraControl) -> CameraControl {
        var changed = control
        changed.flags = flags
        if what.contains(.value) && control.kind.hasValue { changed.value = value }
        if what.contains(.range) {
            changed.minimum = minimum
            changed.maximum = maximum
            changed.step = step
            changed.defaultValue = defaultValue
        }
        return changed
    }
}

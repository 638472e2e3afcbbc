/// The `controls` section's settings: how many controls a rig may have and
/// how a knob drives them, as Apple's Camera Control does.
public struct ControlSettings: Sendable, Equatable {
    public static let defaultMax = 6
    /// The most `controls.max` may allow.
    public static let maxLimit = 12

    /// At most this many controls (`controls.max`).
    public var max = defaultMax
    /// The overlay hides after this long without input (`controls.overlay-timeout`).
    public var overlayTimeout: Duration = .seconds(2)
    /// A continuous slider's change for one detent, as a part of its range (`controls.detent`).
    public var detent = 1.0 / 50
    /// Whether fast spins move continuous and stepped sliders further per detent (`controls.acceleration`).
    public var acceleration = true

    public init() {}
}

/// One control of the `controls` section: its kind, name, target and display.
public struct ControlSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The system zoom slider: 1x to the camera's reach (at most 6x).
        case zoom
        /// The system exposure bias slider: ±2 EV in 1/3 EV steps.
        case exposureBias
        /// A slider; nil values: the target's own range.
        case slider(SliderValues?)
        /// An index picker; nil titles: the target's own (a V4L2 menu's items).
        case picker(titles: [String]?)
    }

    /// A slider's values: continuous, stepped, or an explicit list.
    public enum SliderValues: Sendable, Equatable {
        case continuous(ClosedRange<Double>)
        case stepped(ClosedRange<Double>, step: Double)
        case explicit([Double])
    }

    public var kind: Kind
    public var name: String
    /// What the control drives; nil for the system zoom and exposure bias sliders.
    public var target: ControlTarget?
    /// How its value is shown: one `%@` where the value goes.
    public var format: String?
    /// Values a knob stops at for one extra detent.
    public var prominent: [Double] = []
    /// Whether a picker goes round from its last item to its first.
    public var wraps = false
    /// False keeps the control listed but inert.
    public var enabled = true

    public init(
        kind: Kind, name: String, target: ControlTarget? = nil, format: String? = nil, prominent: [Double] = [],
        wraps: Bool = false, enabled: Bool = true
    ) {
        self.kind = kind
        self.name = name
        self.target = target
        self.format = format
        self.prominent = prominent
        self.wraps = wraps
        self.enabled = enabled
    }
}

/// What a slider or picker drives: a V4L2 control of the camera, by its key
/// (`v4l2:white_balance_temperature`), or one of the recorder's settings.
public enum ControlTarget: Hashable, Sendable, CustomStringConvertible {
    case v4l2(String)
    case recorder(RecorderSetting)

    /// `v4l2:brightness` or `recorder:fps`; nil for anything else.
    public init?(_ text: String) {
        if text.hasPrefix("v4l2:") {
            let key = CameraControl.key(String(text.dropFirst(5)))
            guard !key.isEmpty else { return nil }
            self = .v4l2(key)
        } else if text.hasPrefix("recorder:"), let setting = RecorderSetting(rawValue: String(text.dropFirst(9))),
            setting != .prompterSpeed
        {
            self = .recorder(setting)
        } else if text == "prompter:speed" {
            self = .recorder(.prompterSpeed)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .v4l2(let key): "v4l2:\(key)"
        case .recorder(.prompterSpeed): "prompter:speed"
        case .recorder(let setting): "recorder:\(setting.rawValue)"
        }
    }
}

/// The recorder's settings a control can drive.
public enum RecorderSetting: String, Hashable, Sendable, CaseIterable {
    /// The zoom factor (the camera's own zoom, or the digital crop).
    case zoom
    /// The frame rate: the rig's and its double or half.
    case fps
    /// The export filter.
    case filter
    /// The back or front camera.
    case camera
    /// Seconds of video kept from before each press.
    case preroll
    /// The teleprompter's speed in points a second (the target `prompter:speed`).
    case prompterSpeed = "prompter-speed"

    /// Whether a slider (true) or a picker (false) can drive it; fps both.
    var slides: Bool { self == .zoom || self == .fps || self == .preroll || self == .prompterSpeed }
    var picks: Bool { self == .fps || self == .filter || self == .camera || self == .prompterSpeed }
}

/// Who changed a control: a knob bound to the controls, a `control.*`
/// action, the camera (its driver kept another value, or a setting moved
/// others), another program, the profile's `camera.settings`, or a preset loaded.
public enum ControlSource: String, Sendable, Equatable {
    case knob, action, camera, external, settings, preset
}

/// A control's value or the overlay's state, as `type: control` lines report it.
public struct ControlReport: Sendable, Equatable {
    /// What the overlay did; nil for a value line.
    public enum Event: String, Sendable {
        case overlayShown = "overlay-shown"
        case overlayHidden = "overlay-hidden"
        case pickerShown = "picker-shown"
        /// The picker's highlight moved to the control.
        case highlighted
        /// The picker chose the control: the overlay shows it.
        case selected
        /// A preset's slot was saved or loaded (the control is `preset N`).
        case presetSaved = "preset-saved"
        case presetLoaded = "preset-loaded"
        /// The camera's driver returned from setting the control (`slate run --timing`).
        case applied
    }

    public var time: Instant
    /// The control's name in the profile.
    public var control: String
    public var event: Event?
    /// The value (a picker's index), its text, and whether the control can be used.
    public var value: Double?
    public var text: String?
    public var enabled: Bool?
    public var source: ControlSource?
    /// Why a disabled control cannot be used, or a setting was not made.
    public var reason: String?
    /// For a camera setting the driver kept otherwise: the value asked.
    public var asked: String?

    public init(
        time: Instant, control: String, event: Event? = nil, value: Double? = nil, text: String? = nil,
        enabled: Bool? = nil, source: ControlSource? = nil, reason: String? = nil, asked: String? = nil
    ) {
        self.asked = asked
        self.time = time
        self.control = control
        self.event = event
        self.value = value
        self.text = text
        self.enabled = enabled
        self.source = source
        self.reason = reason
    }
}

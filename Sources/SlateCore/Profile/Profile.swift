/// A rig's profile: which devices are its inputs, what their buttons mean,
/// and what the rig does for each gesture. Loaded from YAML by `ProfileLoader`.
public struct Profile: Sendable {
    public var file: String
    public var inputs: [InputSpec]
    public var capture: CaptureSpec
    public var macros: [String: [Step]]
    public var camera: CameraSpec
    public var controls: [ControlSpec]
    public var controlSettings: ControlSettings
    public var sounds: SoundSpec
    /// The sound recorded with takes; nil: none (picture-only takes).
    public var audio: AudioSpec?
    /// Where `slate run` serves the rig's page, and the names it answers to; nil: it serves none.
    public var http: HTTPSpec?
    /// The teleprompter's script and how it scrolls; nil: no prompter.
    public var prompter: PrompterSpec?
    /// The broker the rig joins, and its name there; nil: it joins none.
    public var mqtt: MQTTSpec?
    /// The OBS instances `obs` actions go to; nil: none.
    public var obs: OBSSpec?
    /// Lights that follow the rig's state; nil: none (the rig's page still has `/tally`).
    public var tally: TallySpec?

    /// The longest debounce window of the inputs: how much later than its
    /// event a button's release can act (so can a take it starts or stops).
    public var longestDebounce: Duration { inputs.map(\.debounce).max() ?? .zero }
}

/// Button roles, as in `AVCaptureEventInteraction`'s primary and secondary handlers.
public enum Role: String, Hashable, Sendable, CaseIterable {
    case primary, secondary
}

/// Capture event phases.
public enum Phase: String, Hashable, Sendable {
    case began, ended, cancelled
}

/// Gestures recognized on top of the phases, each with its own handler.
public enum Gesture: String, Hashable, Sendable, CaseIterable {
    case click, hold, release, double
}

/// When Slate grabs an input device (EVIOCGRAB).
public enum GrabMode: String, Hashable, Sendable, CaseIterable {
    case whenActive = "when-active"
    case always
    case never
}

/// What a button is bound to: a handler role, actions of its own (run when
/// the button is released), or the capture controls' knob button.
public enum KeyBinding: Hashable, Sendable {
    case role(Role)
    case actions([Step])
    /// A click shows or hides the controls' overlay, a double click opens their picker.
    case control
    /// A camera preset's slot: a click loads it, a long press saves it.
    case preset(Int)
}

/// What an axis is bound to: actions that receive its delta, or the capture
/// controls' knob (turning adjusts the control shown, or moves the picker).
public enum AxisBinding: Hashable, Sendable {
    case actions([Step])
    case control
}

/// One input of a rig: the devices it matches and what their codes do.
public struct InputSpec: Sendable {
    public var name: String
    /// Alternatives: a device matches when every rule of one alternative matches.
    public var match: [MatchRules]
    /// EV_KEY codes and their bindings, in profile order.
    public var keys: [(code: UInt16, binding: KeyBinding)]
    /// EV_REL codes and what receives their deltas.
    public var axes: [(code: UInt16, binding: AxisBinding)]
    public var remote: Bool
    /// nil: the default (`when-active` for inputs with volume keys, else `never`).
    public var grab: GrabMode?
    /// How long a button's release waits for its contacts to settle: a press of
    /// the same button within it is a bounce, folded into the press (`Debouncer`).
    /// Zero: every release and press counts.
    public var debounce = InputSpec.defaultDebounce

    /// 25 ms: longer than the bounce of cheap switches (a few ms, 20 at worst),
    /// shorter than a human's quickest press after a release (60 ms and more),
    /// and less than a frame at 30 fps, which is the most a release's actions wait.
    public static let defaultDebounce = Duration.milliseconds(25)
    /// The longest `debounce`: past it, a quick second press would be folded away.
    public static let debounceLimit = Duration.milliseconds(100)

    /// The grab mode in force: volume keys are grabbed while capture is active
    /// unless the profile says otherwise.
    public var effectiveGrab: GrabMode {
        if let grab { return grab }
        let volume: Set<UInt16> = [113, 114, 115]  // KEY_MUTE, KEY_VOLUMEDOWN, KEY_VOLUMEUP
        return keys.contains { volume.contains($0.code) } ? .whenActive : .never
    }

    /// Whether grabbing a device with `codes` takes a uinput clone: the input
    /// grabs it and it has keys, axes or switches the input does not bind,
    /// which the clone passes on to the desktop.
    public func needsClone(for codes: Set<EventCode>) -> Bool {
        guard effectiveGrab != .never else { return false }
        let bound = Set(keys.map { EventCode(type: EventType.key, code: $0.code) })
            .union(axes.map { EventCode(type: EventType.rel, code: $0.code) })
        let passed: Set<UInt16> = [EventType.key, EventType.rel, EventType.abs, EventType.sw]
        return codes.contains { passed.contains($0.type) && !bound.contains($0) }
    }
}

/// Device rules of one `match` alternative, like a libinput quirks section.
public struct MatchRules: Sendable {
    public var name: Glob?
    public var bus: UInt16?
    public var vendor: UInt16?
    public var product: UInt16?
    public var phys: Glob?
    /// The device's unique id (a Bluetooth device's address, when its driver sets it).
    public var uniq: Glob?
    public var has: [EventCode] = []
    public var udev: [(property: String, value: Glob)] = []
    /// The vendor and product ids written in decimal.
    public var decimalIDs: [DecimalID] = []

    public init() {}
}

/// The `capture` section: timing and the handlers of each role.
public struct CaptureSpec: Sendable {
    public static let defaultHoldThreshold: Duration = .milliseconds(500)
    public static let defaultDoubleWindow: Duration = .milliseconds(300)

    public var holdThreshold: Duration = defaultHoldThreshold
    public var doubleWindow: Duration = defaultDoubleWindow
    public var handlers: [Role: [Gesture: [Step]]] = [:]

    public init() {}

    /// The role whose handlers receive a button bound to `role`: a profile
    /// without secondary handlers sends secondary buttons to the primary ones.
    public func handlingRole(for role: Role) -> Role {
        role == .secondary && (handlers[.secondary] ?? [:]).isEmpty ? .primary : role
    }
}

/// The `camera` section (used by the recorder).
public struct CameraSpec: Sendable {
    public var candidates: [CameraPosition: [String]] = [:]
    public var position: CameraPosition = .back
    public var fps = FrameRate(60)
    public var maxSize: (width: Int, height: Int)?
    public var codecs = ["hevc", "h264"]
    public var passthrough = true
    public var orientation = 0
    /// nil: mirrored for the front position only.
    public var mirror: Bool?
    public var preroll: Duration = .zero
    public var work: String?
    public var output: String?
    /// Who may read the takes in the work folder.
    public var takesAccess: TakeAccess = .private
    public var filter: ExportFilter = .none
    /// How long a deleted take waits in the work folder's trash, restorable,
    /// before it is deleted for good; 0: deleted at once.
    public var trashHours = TakeTrash.defaultHours
    /// Whether a verified export moves the takes it joined to the trash;
    /// without, they stay in the work folder, out of the take list.
    public var cleanUp = false
    /// How exports are named.
    public var exportName = ExportName.standard
    public var startOnInput = false
    public var waitForCamera = false
    /// V4L2 controls set whenever the camera opens and each take starts.
    public var settings: [CameraSetting] = []
    /// The proxy written beside each take; nil: none.
    public var proxy: ProxySpec?
    /// The most memory a recording may take, in bytes (`camera.memory-limit`,
    /// in MB): an encoder whose probe needs more is not picked.
    public var memoryLimit = EncoderChoice.memoryLimit

    public init() {}
}

/// Who may read a rig's raw takes (`camera.takes-access`): only the user
/// (the default), the user's group too, or every user of the machine.
public enum TakeAccess: String, CaseIterable, Sendable {
    case `private`
    case group
    case everyone
}

/// The `sounds` section.
public struct SoundSpec: Sendable {
    /// The built-in feedback sounds.
    public static let builtIn = ["shutter", "begin-video-recording", "end-video-recording"]
    /// The largest sound file read, in bytes (a minute of 48 kHz stereo is 11 MiB).
    public static let fileLimit = 16 << 20

    /// ALSA device to play on.
    public var device = "default"
    /// Automatic feedback for remote inputs (false: like `defaultSoundDisabled`).
    public var feedback = true
    /// Files replacing built-in sounds or naming new ones.
    public var files: [String: String] = [:]

    public init() {}

    public func isKnown(_ name: String) -> Bool { Self.builtIn.contains(name) || files[name] != nil }
}

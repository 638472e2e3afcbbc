/// `slate controls set --json`: a control, the value asked for and the value
/// the driver kept (drivers clamp and round to the step).
public struct ControlSetLine: Codable, Hashable, Sendable {
    public var type = "control-set"
    public var control: String
    public var id: String
    public var asked: Int64
    public var kept: Int64
    /// The menu item kept, for a menu or an integer menu.
    public var item: String?

    public init(_ control: CameraControl, asked: Int64, kept: Int64) {
        self.control = control.key
        id = control.id.description
        self.asked = asked
        self.kept = kept
        item = control.menuName(of: kept)
    }
}

/// `slate controls --watch --json`, first: the camera is watched from now on.
public struct ControlWatchLine: Codable, Hashable, Sendable {
    public var type = "watching"
    public var camera: String
    public var path: String
    /// How many controls are watched.
    public var controls: Int

    public init(camera: String, path: String, controls: Int) {
        self.camera = camera
        self.path = path
        self.controls = controls
    }
}

/// `slate controls --watch --json`: a control changed, as it is now.
/// `{"changed":["value"],"control":"brightness","enabled":true,"flags":["slider"],
/// "id":"0x00980900","source":"external","t":1.25,"type":"control","value":200}`
public struct ControlChangeLine: Codable, Hashable, Sendable {
    public var type = "control"
    /// Seconds since the watch began, from the driver's timestamp.
    public var t: Double
    /// The control's key.
    public var control: String
    public var id: String
    /// Null for a control without a value (a button).
    public var value: Int64?
    /// Neither inactive nor read-only.
    public var enabled: Bool
    public var flags: [String]
    /// What changed: `value`, `flags`, `range`, `dimensions`.
    public var changed: [String]
    /// `external`: another program, or the driver itself (an automatic mode),
    /// changed it; a watch never hears of its own changes.
    public var source = "external"

    /// `change` to `control`, `origin` being when the watch began.
    public init(_ change: CameraControlChange, of control: CameraControl, origin: Instant) {
        t = (change.time - origin).inSeconds(decimals: 3)
        self.control = control.key
        id = control.id.description
        value = control.kind.hasValue ? change.value : nil
        enabled = change.isEnabled
        flags = CameraControl.Flag.names(change.flags)
        changed = change.what.names
    }
}

/// `rigs ACTION` (every rig on the broker, this one included) or `rig NAME
/// ACTION` (one rig): an action sent over MQTT, as the receiving rig's profile
/// reads it (`take.start`, `zoom.set 2`, a macro's name).
public struct RigsAction: Hashable, Sendable {
    /// Which rigs run it.
    public enum Target: Hashable, Sendable {
        case every
        case rig(String)
    }

    public var target: Target
    public var text: String

    public init(target: Target, text: String) {
        self.target = target
        self.text = text
    }

    /// Actions a rig never takes from another: programs, and sending on.
    static let refusedNames: Set<String> = ["exec", "rigs", "rig"]

    /// Actions timed ahead (`at`) so that every rig's take starts or stops with the same instant's frame.
    public static let synchronizedNames: Set<String> = ["take.start", "take.stop"]

    /// `rigs take.start`, `rig cam-b zoom.set 2`.
    public var description: String {
        switch target {
        case .every: "rigs \(text)"
        case .rig(let name): "rig \(name) \(text)"
        }
    }
}

/// A command for other rigs, as the rig machine asks it sent: where, what,
/// and whether it is timed ahead.
public struct RigsCommand: Hashable, Sendable {
    public var target: RigsAction.Target
    /// The action's text; `take.toggle` is sent as `take.start` or `take.stop`,
    /// as this rig's book has it, so every rig goes the same way.
    public var text: String

    public init(target: RigsAction.Target, text: String) {
        self.target = target
        self.text = text
    }

    /// Whether every rig runs it at one instant, `start-delay` ahead.
    public var isSynchronized: Bool { RigsAction.synchronizedNames.contains(text) }

    /// Whether each rig's first frame is gathered, to show how far apart they were.
    public var startsTakes: Bool { text == Action.takeStart.name }
}

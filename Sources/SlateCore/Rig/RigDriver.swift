/// A rig machine held by reference, with the effects it asked for that are
/// not carried out yet: what the input loop, a replay and the daemon share on
/// one thread.
public final class RigDriver {
    public private(set) var machine: RigMachine
    /// Effects in the order they were asked for; whoever carries them out empties it.
    public var effects: [RigEffect] = []

    public init(_ machine: RigMachine) {
        self.machine = machine
        effects.reserveCapacity(16)
    }

    /// Hands `input` to the machine.
    public func handle(_ input: RigInput) {
        machine.handle(input, into: &effects)
    }

    /// Binds `device` to the first input it matches.
    public func attach(_ device: DeviceIdentity) -> RigEffect.Attachment {
        machine.attach(device)
    }

    /// Whether the rig uses `event`: a bound button or axis of the source's input.
    public func uses(_ event: InputEvent, from source: SourceID) -> Bool {
        machine.uses(event, from: source)
    }

    /// The profile input a source is bound to.
    public func input(of source: SourceID) -> InputSpec? {
        machine.input(of: source)
    }

    /// Whether capture is active: bound buttons act and `when-active` grabs hold.
    public var isCaptureActive: Bool { machine.isCaptureActive }

    /// The effects asked for so far, which are then forgotten.
    public func takeEffects() -> [RigEffect] {
        defer { effects.removeAll(keepingCapacity: true) }
        return effects
    }

    /// The report lines among the effects asked for so far.
    public var reports: [Report] {
        effects.compactMap { if case .report(let report) = $0 { report } else { nil } }
    }

    /// Goes on with `machine` (a profile reloaded), the effects not carried out kept.
    public func replace(with machine: RigMachine) {
        self.machine = machine
    }
}

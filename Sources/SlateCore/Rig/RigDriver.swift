/// A rig machine held by reference, with the effects it asked for that are
/// not carried out yet: what the input loop, a replay and the daemon share on
/// one thread. With a modelled camera (replay, monitor), the controls and
/// presets the machine asks of the camera are answered at once, as a camera
/// session answers.
public final class RigDriver {
    public private(set) var machine: RigMachine
    /// Effects in the order they were asked for; whoever carries them out empties it.
    public var effects: [RigEffect] = []
    /// The camera whose controls are modelled; nil when a real one answers.
    public private(set) var camera: ModelledCamera?

    public init(_ machine: RigMachine, camera: ModelledCamera? = nil) {
        self.machine = machine
        self.camera = camera
        effects.reserveCapacity(16)
        if let camera { handle(.fact(.cameraControls(camera.controls, source: .camera), at: Instant(microseconds: 0))) }
    }

    /// Hands `input` to the machine; a modelled camera answers what it is asked.
    public func handle(_ input: RigInput) {
        let start = effects.count
        machine.handle(input, into: &effects)
        guard var camera else { return }
        var facts: [(RigFact, Instant)] = []
        for effect in effects[start...] {
            switch effect {
            case .camera(.setControl(let id, let value), let time): facts += camera.set(id, value).map { ($0, time) }
            case .preset(let command, let time): facts += camera.carryOut(command).map { ($0, time) }
            default: break
            }
        }
        self.camera = camera
        for (fact, time) in facts { handle(.fact(fact, at: time)) }
    }

    /// The prompter's script was read again, or the profile has none now (`RigBook.replacePrompter`).
    public func replacePrompter(with prompter: Prompter?, at time: Instant) {
        machine.replacePrompter(with: prompter, at: time)
    }

    /// Another program set the modelled camera's control `key` at `time`.
    public func changeFromOutside(_ key: String, to value: Int64, at time: Instant) {
        guard var camera else { return }
        let facts = camera.changeFromOutside(key, to: value)
        self.camera = camera
        for fact in facts { handle(.fact(fact, at: time)) }
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

/// A rig as a state machine: the profile's inputs bound to devices, the
/// gesture engine, the macro runner and the books on the recorder and camera.
///
/// Everything reaches it as a `RigInput` (events in time order, devices,
/// time passing, facts from the recorder and camera) and everything it wants
/// done comes back as `RigEffect`s; it does no I/O and reads no clock. Timers
/// (hold, double click, `wait`) fire as time passes: before each event, or
/// with `.time`. A button's release waits out its input's debounce window
/// (`Debouncer`); until it goes on, no hold or double-click window due after
/// it runs out.
public struct RigMachine: Sendable {
    /// A device bound to one of the profile's inputs.
    public struct Source: Sendable {
        public var identity: DeviceIdentity
        public var input: Int
    }

    public let profile: Profile
    private let bindings: Bindings
    private var engine: GestureEngine
    private var debouncer = Debouncer()
    private var runner: MacroRunner
    /// The books on the recorder and the camera.
    public private(set) var book: RigBook
    /// The capture controls and their overlay.
    public private(set) var deck: ControlDeck
    public private(set) var sources: [Source?] = []
    /// The input index of each source, -1 once detached (read on every event).
    private var sourceInputs: [Int] = []
    /// Each source's bound events since its last SYN_REPORT (the evdev frame),
    /// with their resync flag.
    private var frames: [[(event: InputEvent, resync: Bool)]] = []
    private var engineOutput: [EngineOutput] = []
    /// When the next timer is due, if any.
    public private(set) var nextDeadline: Instant?
    /// When each input (by its index in the profile) was last pressed or turned.
    private var lastUsed: [Int: Instant] = [:]

    public init(profile: Profile, book: RigBook = RigBook(), captureActive: Bool = true) {
        self.profile = profile
        bindings = Bindings(profile: profile)
        engine = GestureEngine(bindings: bindings, capture: profile.capture, active: captureActive)
        runner = MacroRunner(sounds: profile.sounds)
        self.book = book
        deck = ControlDeck(profile: profile, active: captureActive, book: book)
        engineOutput.reserveCapacity(8)
    }

    /// The prompter's script was read again, or the profile has none now (`RigBook.replacePrompter`).
    public mutating func replacePrompter(with prompter: Prompter?, at time: Instant) {
        book.replacePrompter(with: prompter, at: time)
    }

    /// Handles `input`, appending what is to be done to `effects`.
    public mutating func handle(_ input: RigInput, into effects: inout [RigEffect]) {
        switch input {
        case .event(let event, let source, let resync):
            if let deadline = nextDeadline, deadline <= event.time { advance(to: event.time, into: &effects) }
            handle(event, from: source, resync: resync, into: &effects)
        case .attached(let device):
            effects.append(.attachment(attach(device)))
        case .detached(let source, let time):
            detach(source, at: time, into: &effects)
        case .time(let time):
            advance(to: time, into: &effects)
        case .captureActive(let active, let time):
            advance(to: time, into: &effects)
            letGoHeldRelease(upTo: time, into: &effects)
            engine.setActive(active, time: time, into: &engineOutput)
            deck.setActive(active, at: time, into: &effects)
            dispatch(into: &effects)
        case .endOfStream(let time):
            advance(to: time, into: &effects)
            letGoHeldRelease(upTo: time, into: &effects)
            engine.endOfStream(time: time, into: &engineOutput)
            dispatch(into: &effects)
        case .fact(let fact, let time):
            advance(to: time, into: &effects)
            book.enter(fact, at: time, into: &effects)
            deck.enter(fact, at: time, book: book, into: &effects)
            updateDeadline()
        case .request(let request):
            advance(to: request.time, into: &effects)
            runner.run(
                request.steps, trigger: nil, source: request.source, value: nil, feedback: true, at: request.time,
                book: &book, deck: &deck, into: &effects)
            updateDeadline()
        }
    }

    /// Handles `input` and returns what is to be done.
    public mutating func handle(_ input: RigInput) -> [RigEffect] {
        var effects: [RigEffect] = []
        handle(input, into: &effects)
        return effects
    }

    public var isCaptureActive: Bool { engine.isActive }

    /// Whether each control value the camera's driver kept gets an `applied`
    /// line at the instant it returned (`slate run --timing`).
    public var reportsAppliedControls: Bool {
        get { deck.reportsApplied }
        set { deck.reportsApplied = newValue }
    }

    /// Whether a device is bound.
    public var hasDevices: Bool { sources.contains { $0 != nil } }

    /// Each input of the profile: the device bound to it (nil: none is
    /// connected) and when it was last pressed or turned.
    public var inputs: [(name: String, device: String?, lastUsed: Instant?)] {
        profile.inputs.indices.map { index in
            let device = sources.compactMap { $0 }.last { $0.input == index }?.identity.name
            return (profile.inputs[index].name, device, lastUsed[index])
        }
    }

    /// Binds `device` to the first input it matches (as `.attached` does).
    public mutating func attach(_ device: DeviceIdentity) -> RigEffect.Attachment {
        guard let input = profile.inputIndex(matching: device) else {
            return .unmatched(profile.explainMatch(device))
        }
        sources.append(Source(identity: device, input: input))
        sourceInputs.append(input)
        frames.append([])
        return .bound(sources.count - 1, input: profile.inputs[input].name)
    }

    /// The device went away: its event in progress is cancelled.
    private mutating func detach(_ source: SourceID, at time: Instant, into effects: inout [RigEffect]) {
        advance(to: time, into: &effects)
        letGoHeldRelease(upTo: time, into: &effects)
        guard sources.indices.contains(source), sources[source] != nil else { return }
        engine.sourceRemoved(source, time: time, into: &engineOutput)
        sources[source] = nil
        sourceInputs[source] = -1
        frames[source].removeAll()
        dispatch(into: &effects)
    }

    /// Presses of buttons the input does not bind are reported as ignored. Bound
    /// events take effect at their frame's SYN_REPORT, as the evdev protocol
    /// commits them; key releases in a frame closed by `SYN_REPORT 1` are the
    /// kernel's own (a device unplugged, or reset on resume) and cancel rather than end.
    private mutating func handle(
        _ event: InputEvent, from source: SourceID, resync: Bool, into effects: inout [RigEffect]
    ) {
        guard sourceInputs.indices.contains(source) else { return }
        let input = sourceInputs[source]
        guard input >= 0 else { return }
        let code = Int(event.code)
        switch event.type {
        case EventType.syn where event.code == SynCode.report:
            if !frames[source].isEmpty { commit(source, input: input, synthetic: event.value == 1, into: &effects) }
        case EventType.key where code < Bindings.keyCount && bindings.keyTables[input][code] != Bindings.unbound:
            frames[source].append((event, resync))
        case EventType.key where event.value == 1 && !resync:
            frames[source].append((event, resync))
        case EventType.rel where code < Bindings.relCount && bindings.axisTables[input][code] != 0:
            frames[source].append((event, resync))
        default:
            return
        }
    }

    private mutating func commit(_ source: SourceID, input: Int, synthetic: Bool, into effects: inout [RigEffect]) {
        for index in frames[source].indices {
            let (event, resync) = frames[source][index]
            if event.type == EventType.key,
                !debounce(event, from: source, input: input, settled: resync || synthetic, into: &effects)
            {
                continue
            }
            deliver(event, from: source, input: input, resync: resync, synthetic: synthetic, into: &effects)
        }
        frames[source].removeAll(keepingCapacity: true)
        dispatch(into: &effects)
    }

    /// A button's event before it goes on: a press of the button whose release
    /// is held folds both away (reported as `debounced`); any other event lets
    /// the held release go first; a release is held for the input's window.
    /// Events a resync or the kernel made (`settled`) are never held or folded.
    /// Returns whether `event` goes on now.
    private mutating func debounce(
        _ event: InputEvent, from source: SourceID, input: Int, settled: Bool, into effects: inout [RigEffect]
    ) -> Bool {
        if !settled, let bounce = debouncer.fold(event, source: source) {
            // The timers that waited on the release run now, as the button stayed down.
            updateDeadline()
            advance(to: event.time, into: &effects)
            effects.append(
                .report(
                    .debounced(
                        DebounceReport(
                            time: event.time, input: profile.inputs[input].name,
                            code: EventCode(type: EventType.key, code: event.code), bounce: bounce))))
            return false
        }
        letGoHeldRelease(upTo: event.time, into: &effects)
        // Only bound buttons' releases reach a frame.
        let window = profile.inputs[input].debounce
        guard event.value == 0, !settled, window > .zero else { return true }
        debouncer.hold(event, source: source, input: input, window: window)
        updateDeadline()
        return false
    }

    /// The held release goes on (another event came, or capture, the device or
    /// the input ended), then the timers that waited on it fire, up to `time`.
    private mutating func letGoHeldRelease(upTo time: Instant, into effects: inout [RigEffect]) {
        guard debouncer.held != nil else { return }
        letGoHeldRelease(into: &effects)
        advance(to: time, into: &effects)
    }

    /// The held release goes on, with its own timestamp.
    private mutating func letGoHeldRelease(into effects: inout [RigEffect]) {
        guard let held = debouncer.letGo() else { return }
        deliver(held.event, from: held.source, input: held.input, resync: false, synthetic: false, into: &effects)
        dispatch(into: &effects)
    }

    /// A bound event of `source`'s frame takes effect.
    private mutating func deliver(
        _ event: InputEvent, from source: SourceID, input: Int, resync: Bool, synthetic: Bool, into effects: inout [RigEffect]
    ) {
        let code = Int(event.code)
        if !resync && !synthetic && (event.type == EventType.rel || (event.type == EventType.key && event.value == 1)) {
            lastUsed[input] = event.time
        }
        if event.type == EventType.key, code < Bindings.keyCount, bindings.keyTables[input][code] == Bindings.control {
            knobButton(event, input: input, skipped: resync || synthetic, into: &effects)
        } else if event.type == EventType.key, code < Bindings.keyCount, bindings.keyTables[input][code] < Bindings.presetBase {
            let slot = Int(Bindings.presetBase - bindings.keyTables[input][code])
            presetButton(slot, event, input: input, skipped: resync || synthetic, into: &effects)
        } else if event.type == EventType.key {
            if code >= Bindings.keyCount || bindings.keyTables[input][code] == Bindings.unbound {
                effects.append(
                    .report(
                        .ignored(
                            IgnoredReport(
                                time: event.time, input: profile.inputs[input].name,
                                code: EventCode(type: EventType.key, code: event.code), reason: .notBound))))
            } else if resync || (synthetic && event.value == 0) {
                engine.resync(source: source, code: event.code, down: event.value != 0, time: event.time, into: &engineOutput)
            } else {
                engine.key(
                    source: source, input: input, code: event.code, binding: bindings.keyTables[input][code],
                    value: event.value, time: event.time, into: &engineOutput)
            }
        } else if bindings.axisTables[input][code] == Bindings.control {
            if engine.isActive, event.value != 0, !resync { deck.turn(event.value, at: event.time, book: &book, into: &effects) }
        } else if engine.isActive, event.value != 0, !resync {
            let trigger = TriggerInfo(
                input: profile.inputs[input].name, code: EventCode(type: event.type, code: event.code),
                role: nil, gesture: nil)
            runner.run(
                bindings.axisActions[input][Int(bindings.axisTables[input][code]) - 1], trigger: trigger,
                value: Double(event.value), feedback: false, at: event.time, book: &book, deck: &deck, into: &effects)
        }
    }

    /// A preset's button: a click loads the slot, a long press saves it. Like
    /// the knob's, it is not a capture event.
    private mutating func presetButton(
        _ slot: Int, _ event: InputEvent, input: Int, skipped: Bool, into effects: inout [RigEffect]
    ) {
        guard !skipped else { return }
        switch event.value {
        case 1 where !engine.isActive:
            effects.append(inactive(event, input: input))
        case 1: deck.pressPreset(slot, at: event.time)
        case 0: deck.releasePreset(slot, at: event.time, into: &effects)
        default: break
        }
        updateDeadline()
    }

    /// A press that capture being inactive ignores.
    private func inactive(_ event: InputEvent, input: Int) -> RigEffect {
        .report(
            .ignored(
                IgnoredReport(
                    time: event.time, input: profile.inputs[input].name,
                    code: EventCode(type: EventType.key, code: event.code), reason: .captureInactive)))
    }

    /// The controls' knob button: not a capture event, so it takes no part in
    /// the one-source rule. Presses lost to SYN_DROPPED or released by the
    /// kernel (an unplug) do nothing.
    private mutating func knobButton(_ event: InputEvent, input: Int, skipped: Bool, into effects: inout [RigEffect]) {
        guard !skipped else { return }
        switch event.value {
        case 1 where !engine.isActive:
            effects.append(inactive(event, input: input))
        case 1: deck.press(at: event.time, into: &effects)
        case 0: deck.release(at: event.time, into: &effects)
        default: break
        }
    }

    /// Whether the rig uses `event`: a bound button or axis of the source's input.
    /// A grabbed device passes the others on to its clone.
    public func uses(_ event: InputEvent, from source: SourceID) -> Bool {
        guard sourceInputs.indices.contains(source), sourceInputs[source] >= 0 else { return false }
        let input = sourceInputs[source], code = Int(event.code)
        switch event.type {
        case EventType.key where code < Bindings.keyCount: return bindings.keyTables[input][code] != Bindings.unbound
        case EventType.rel where code < Bindings.relCount: return bindings.axisTables[input][code] != 0
        default: return false
        }
    }

    /// The profile input a source is bound to.
    public func input(of source: SourceID) -> InputSpec? {
        guard sourceInputs.indices.contains(source), sourceInputs[source] >= 0 else { return nil }
        return profile.inputs[sourceInputs[source]]
    }

    /// Fires every timer due at or before `time`, in time order: the held
    /// release's window among them; the engine's and the deck's wait for it.
    private mutating func advance(to time: Instant, into effects: inout [RigEffect]) {
        while let deadline = nextDeadline, deadline <= time {
            if let engineDeadline = beforeHeldRelease(engine.nextDeadline), engineDeadline == deadline {
                engine.fireTimers(upTo: deadline, into: &engineOutput)
                dispatch(into: &effects)
            } else if let window = debouncer.nextDeadline, window == deadline {
                letGoHeldRelease(into: &effects)
            } else if let runnerDeadline = runner.nextDeadline, runnerDeadline == deadline {
                runner.fireTimers(upTo: deadline, book: &book, deck: &deck, into: &effects)
                updateDeadline()
            } else {
                deck.fireTimers(upTo: deadline, into: &effects)
                updateDeadline()
            }
        }
    }

    /// A button's timer, unless it is due after the held release: it waits
    /// until the release goes on or folds into a press.
    private func beforeHeldRelease(_ deadline: Instant?) -> Instant? {
        guard let deadline, let held = debouncer.held else { return deadline }
        return deadline <= held.event.time ? deadline : nil
    }

    private mutating func dispatch(into effects: inout [RigEffect]) {
        for output in engineOutput {
            switch output {
            case .phase(_, let input, let code, let role, let phase, let time):
                effects.append(
                    .report(
                        .phase(
                            PhaseReport(
                                time: time, input: profile.inputs[input].name,
                                code: EventCode(type: EventType.key, code: code), role: role, phase: phase))))
            case .gesture(_, let input, let code, let target, let gesture, let time):
                let steps: [Step]?
                switch target {
                case .role(let role): steps = bindings.handler(role, gesture)
                case .direct(let index): steps = bindings.directActions[input][index]
                }
                guard let steps else { continue }
                let trigger = TriggerInfo(
                    input: profile.inputs[input].name, code: EventCode(type: EventType.key, code: code),
                    role: target.role, gesture: gesture)
                runner.run(
                    steps, trigger: trigger, value: nil, feedback: bindings.remote[input], at: time, book: &book,
                    deck: &deck, into: &effects)
            case .ignored(_, let input, let code, let cause, let time):
                let reason: IgnoredReport.Reason
                switch cause {
                case .captureInactive: reason = .captureInactive
                case .inProgress(let other, let otherCode):
                    reason = .inProgress(
                        input: profile.inputs[other].name, code: EventCode(type: EventType.key, code: otherCode))
                }
                effects.append(
                    .report(
                        .ignored(
                            IgnoredReport(
                                time: time, input: profile.inputs[input].name,
                                code: EventCode(type: EventType.key, code: code), reason: reason))))
            }
        }
        engineOutput.removeAll(keepingCapacity: true)
        updateDeadline()
    }

    private mutating func updateDeadline() {
        nextDeadline = [
            beforeHeldRelease(engine.nextDeadline), debouncer.nextDeadline, runner.nextDeadline,
            beforeHeldRelease(deck.nextDeadline),
        ].compactMap { $0 }.min()
    }
}

/// A rig's capture controls and the overlay a knob drives, as Apple's Camera
/// Control drives `AVCaptureControl`s: a click shows the current control's
/// overlay (a click hides it), turning adjusts it one step a detent (further
/// for fast spins, stopping once at prominent values), a double click opens
/// the picker, where turning moves between the controls that can be used and
/// a click selects. The overlay hides after `overlay-timeout` without input.
///
/// Controls work only while capture is active. A control the camera cannot
/// back (missing, inactive, read-only) stays listed but disabled; the picker
/// skips it until the camera says it can be used again. It does no I/O:
/// recorder settings go through the rig's books, V4L2 controls become
/// `setControl` effects, and the camera's answers come back as facts.
public struct ControlDeck: Sendable {
    enum Mode: Equatable {
        case hidden, overlay
        case picker(highlight: Int)
    }

    let settings: ControlSettings
    let camera: CameraSpec
    let doubleWindow: Duration
    private(set) var controls: [LiveControl]
    /// The control the overlay shows and turns adjust.
    private(set) var current = 0
    private(set) var mode = Mode.hidden
    private var hideAt: Instant?
    private var lastClick: Instant?
    private var swallowRelease = false
    private var lastTurn: (time: Instant, direction: Int)?
    /// A prominent value reached: one more detent that way is absorbed.
    private var stop: (control: Int, value: Double, direction: Int)?
    /// The camera's controls by id; nil while no camera has told them.
    private var catalog: [CameraControl.ID: CameraControl]?
    private var active: Bool
    let holdThreshold: Duration
    /// Whether each value the camera's driver kept is reported (`applied`), at
    /// the instant the fact gives: for latency measurements.
    var reportsApplied = false
    /// A preset button down, and when holding it saves the slot.
    private var presetHold: (slot: Int, at: Instant)?

    public init(profile: Profile, active: Bool = true, book: RigBook) {
        settings = profile.controlSettings
        camera = profile.camera
        doubleWindow = profile.capture.doubleWindow
        holdThreshold = profile.capture.holdThreshold
        controls = profile.controls.map { LiveControl(spec: $0) }
        self.active = active
        for index in controls.indices { resolve(index, book: book) }
    }

    public var nextDeadline: Instant? {
        switch (hideAt, presetHold?.at) {
        case (let hide?, let hold?): min(hide, hold)
        case (let hide, let hold): hide ?? hold
        }
    }

    // MARK: The knob

    /// The knob's button went down.
    mutating func press(at time: Instant, into effects: inout [RigEffect]) {
        guard active, !controls.isEmpty else { return }
        swallowRelease = false
        if let last = lastClick, time - last <= doubleWindow {
            lastClick = nil
            swallowRelease = true
            let highlight = controls[current].enabled ? current : (enabledIndices.first ?? current)
            mode = .picker(highlight: highlight)
            report(.pickerShown, highlight, at: time, into: &effects)
            hideAt = time + settings.overlayTimeout
        }
    }

    /// The knob's button came up: a click, unless it ended a double click.
    mutating func release(at time: Instant, into effects: inout [RigEffect]) {
        guard active, !controls.isEmpty else { return }
        if swallowRelease {
            swallowRelease = false
            return
        }
        switch mode {
        case .hidden:
            show(at: time, into: &effects)
        case .overlay:
            hide(at: time, into: &effects)
        case .picker(let highlight):
            current = highlight
            mode = .overlay
            report(.selected, current, at: time, into: &effects)
            hideAt = time + settings.overlayTimeout
        }
        lastClick = time
    }

    /// The knob turned `delta` detents (negative: down).
    mutating func turn(_ delta: Int32, at time: Instant, book: inout RigBook, into effects: inout [RigEffect]) {
        guard active, !controls.isEmpty, delta != 0 else { return }
        let direction = delta > 0 ? 1 : -1
        let detents = Int(min(delta.magnitude, 1000))
        if case .picker(let highlight) = mode {
            let next = step(from: highlight, by: direction * detents, wrapping: false)
            if next != highlight {
                mode = .picker(highlight: next)
                report(.highlighted, next, at: time, into: &effects)
            }
            hideAt = time + settings.overlayTimeout
        } else {
            if mode == .hidden { show(at: time, into: &effects) }
            var multiplier = 1
            if settings.acceleration, let last = lastTurn, last.direction == direction {
                let gap = time - last.time
                multiplier = gap < .milliseconds(25) ? 4 : gap < .milliseconds(50) ? 2 : 1
            }
            adjust(
                current, direction: direction, detents: detents, multiplier: multiplier, source: .knob, at: time, book: &book,
                into: &effects)
            hideAt = time + settings.overlayTimeout
        }
        // A turn between two clicks makes them two clicks, not a double click.
        lastClick = nil
        lastTurn = (time, direction)
    }

    // MARK: Actions

    /// Runs a `control.*` action.
    mutating func perform(
        _ action: ControlAction, value: Double?, at time: Instant, book: inout RigBook, into effects: inout [RigEffect]
    ) {
        guard active, !controls.isEmpty else { return }
        switch action {
        case .show:
            if mode != .overlay { show(at: time, into: &effects) }
            hideAt = time + settings.overlayTimeout
        case .next, .previous:
            current = step(from: current, by: action == .next ? 1 : -1, wrapping: true)
            mode = .overlay
            report(.selected, current, at: time, into: &effects)
            hideAt = time + settings.overlayTimeout
        case .adjust(let detents):
            let amount = Int((detents.map(Double.init) ?? value ?? 1).rounded())
            guard amount != 0 else { return }
            if mode != .overlay { show(at: time, into: &effects) }
            adjust(
                current, direction: amount > 0 ? 1 : -1, detents: min(Int(amount.magnitude), 1000), multiplier: 1,
                source: .action, at: time, book: &book, into: &effects)
            hideAt = time + settings.overlayTimeout
        case .set(let name, let text):
            guard let index = index(named: name) else { return }
            refresh(index, book: book)
            guard controls[index].enabled, let value = parse(text, for: index) else {
                report(index, source: .action, at: time, into: &effects)
                return
            }
            set(index, to: value, source: .action, at: time, book: &book, into: &effects)
        case .reset(let name):
            guard let index = index(named: name) else { return }
            refresh(index, book: book)
            guard controls[index].enabled, let value = defaultValue(index) else {
                report(index, source: .action, at: time, into: &effects)
                return
            }
            set(index, to: value, snapping: false, source: .action, at: time, book: &book, into: &effects)
        }
    }

    // MARK: Time, capture and facts

    /// Saves a preset held long enough, and hides the overlay if its time is up by `time`.
    mutating func fireTimers(upTo time: Instant, into effects: inout [RigEffect]) {
        if let hold = presetHold, hold.at <= time {
            presetHold = nil
            savePreset(hold.slot, at: hold.at, into: &effects)
        }
        guard let deadline = hideAt, deadline <= time else { return }
        hide(at: deadline, into: &effects)
    }

    // MARK: Presets

    /// A preset button went down: held past the hold threshold, it saves.
    mutating func pressPreset(_ slot: Int, at time: Instant) {
        guard active else { return }
        presetHold = (slot, time + holdThreshold)
    }

    /// A preset button came up before it was held: it loads.
    mutating func releasePreset(_ slot: Int, at time: Instant, into effects: inout [RigEffect]) {
        guard let hold = presetHold, hold.slot == slot else { return }
        presetHold = nil
        loadPreset(slot, at: time, into: &effects)
    }

    /// Asks for the camera's controls to be saved in `slot`.
    mutating func savePreset(_ slot: Int, at time: Instant, into effects: inout [RigEffect]) {
        effects.append(.preset(.save(slot: slot), at: time))
    }

    /// Asks for `slot` to be loaded onto the camera; its values come back as facts.
    mutating func loadPreset(_ slot: Int, at time: Instant, into effects: inout [RigEffect]) {
        effects.append(.preset(.load(slot: slot), at: time))
    }

    /// Capture turned on or off: off hides the overlay and stops the controls.
    mutating func setActive(_ active: Bool, at time: Instant, into effects: inout [RigEffect]) {
        if !active, mode != .hidden { hide(at: time, into: &effects) }
        self.active = active
        lastClick = nil
        swallowRelease = false
        lastTurn = nil
        presetHold = nil
    }

    /// Takes in what the camera and the recorder reported, after the books did.
    mutating func enter(_ fact: RigFact, at time: Instant, book: RigBook, into effects: inout [RigEffect]) {
        switch fact {
        case .cameraControls(let changed, let source):
            var known = catalog ?? [:]
            for control in changed { known[control.id] = control }
            catalog = known
            refreshAll(source: source, at: time, book: book, into: &effects)
        case .controlSet(let id, let asked, let kept):
            catalog?[id]?.value = kept
            for index in controls.indices where controls[index].drives(id) {
                controls[index].pending = max(0, controls[index].pending - 1)
                if reportsApplied {
                    var applied = controls[index]
                    applied.value = applied.value(ofRaw: kept)
                    effects.append(
                        .report(
                            .control(
                                ControlReport(
                                    time: time, control: applied.spec.name, event: .applied, value: applied.value,
                                    text: applied.text, source: .camera))))
                }
                guard controls[index].pending == 0, kept != asked else { continue }
                controls[index].value = controls[index].value(ofRaw: kept)
                report(index, source: .camera, at: time, into: &effects)
            }
        case .controlFailed(let id, let reason):
            for index in controls.indices where controls[index].drives(id) {
                controls[index].pending = max(0, controls[index].pending - 1)
                resolve(index, book: book)
                report(index, source: .camera, reason: reason, at: time, into: &effects)
            }
        case .presetSaved(let slot, let count):
            effects.append(
                .report(
                    .control(ControlReport(time: time, control: "preset \(slot)", event: .presetSaved, text: "\(count) controls"))
                ))
        case .presetFailed(let slot, let reason):
            effects.append(.report(.control(ControlReport(time: time, control: "preset \(slot)", reason: reason))))
        case .settingsApplied(let outcomes, let source):
            for outcome in outcomes {
                if let kept = outcome.kept, let id = catalog?.values.first(where: { $0.key == outcome.key })?.id {
                    catalog?[id]?.value = kept
                }
                effects.append(
                    .report(
                        .control(
                            ControlReport(
                                time: time, control: outcome.key, value: outcome.kept.map(Double.init),
                                text: outcome.keptText, source: source, reason: outcome.problem,
                                asked: outcome.keptText == outcome.asked || outcome.kept.map(String.init) == outcome.asked
                                    ? nil : outcome.asked))))
            }
            refreshAll(source: nil, at: time, book: book, into: &effects)
        case .cameraOpened, .cameraSwitchFailed:
            refreshAll(source: nil, at: time, book: book, into: &effects)
        case .cameraLost, .cameraClosed:
            catalog = nil
            refreshAll(source: nil, at: time, book: book, into: &effects)
        default:
            break
        }
    }

    // MARK: Moving values

    private mutating func adjust(
        _ index: Int, direction: Int, detents: Int, multiplier: Int, source: ControlSource, at time: Instant,
        book: inout RigBook, into effects: inout [RigEffect]
    ) {
        refresh(index, book: book)
        let control = controls[index]
        guard control.enabled else {
            report(index, source: source, at: time, into: &effects)
            return
        }
        var detents = detents
        if let held = stop, held.control == index, held.value == control.value, held.direction == direction {
            detents -= 1
        }
        stop = nil
        guard detents > 0 else { return }
        let steps = direction * detents * (control.scale.accelerates ? multiplier : 1)
        var target = control.scale.moved(control.value, by: steps, wraps: control.spec.wraps)
        let crossed = control.spec.prominent.filter {
            direction > 0 ? (control.value < $0 && $0 <= target) : (target <= $0 && $0 < control.value)
        }
        if let first = direction > 0 ? crossed.min() : crossed.max() {
            target = first
            stop = (index, first, direction)
        }
        guard target != control.value else { return }
        set(index, to: target, source: source, at: time, book: &book, into: &effects)
    }

    /// Sends `value` to the control's target and reports it; `snapping` puts
    /// it on the control's scale first (a reset to the driver's default does not).
    private mutating func set(
        _ index: Int, to value: Double, snapping: Bool = true, source: ControlSource, at time: Instant,
        book: inout RigBook, into effects: inout [RigEffect]
    ) {
        var control = controls[index]
        let value = control.quantized(snapping ? control.scale.snapped(value) : value)
        switch control.drive {
        case .recorder(let setting):
            let command = RecorderSettingValues.command(setting, picker: control.isPicker, value: value, rate: book.fps)
            if case .ignored(let why) = book.answer(command, at: time, into: &effects) {
                report(index, source: source, reason: why, at: time, into: &effects)
                return
            }
            control.value = RecorderSettingValues.value(setting, picker: control.isPicker, in: book)
        case .v4l2(let camera):
            effects.append(.camera(.setControl(camera.id, control.raw(value)), at: time))
            control.pending += 1
            control.value = value
        case .exposureBias(let camera):
            effects.append(.camera(.setControl(camera.id, control.raw(value)), at: time))
            control.pending += 1
            control.value = value
        case .exposureTime(let camera, let base):
            let base = base ?? catalog?[camera.id]?.value ?? camera.value ?? camera.defaultValue
            control.drive = .exposureTime(camera, base: base)
            effects.append(.camera(.setControl(camera.id, control.raw(value)), at: time))
            control.pending += 1
            control.value = value
        case .none:
            return
        }
        controls[index] = control
        report(index, source: source, at: time, into: &effects)
    }

    // MARK: The overlay

    private mutating func show(at time: Instant, into effects: inout [RigEffect]) {
        mode = .overlay
        report(.overlayShown, current, at: time, into: &effects)
        hideAt = time + settings.overlayTimeout
    }

    private mutating func hide(at time: Instant, into effects: inout [RigEffect]) {
        let shown: Int
        if case .picker(let highlight) = mode { shown = highlight } else { shown = current }
        mode = .hidden
        hideAt = nil
        stop = nil
        report(.overlayHidden, shown, at: time, into: &effects)
    }

    private var enabledIndices: [Int] { controls.indices.filter { controls[$0].enabled } }

    /// The enabled control `offset` places from `index`; `index` itself when none is.
    private func step(from index: Int, by offset: Int, wrapping: Bool) -> Int {
        let enabled = enabledIndices
        guard !enabled.isEmpty, offset != 0 else { return index }
        let position = enabled.firstIndex(of: index) ?? enabled.firstIndex { $0 > index } ?? 0
        let target = position + offset
        if wrapping { return enabled[((target % enabled.count) + enabled.count) % enabled.count] }
        return enabled[min(max(target, 0), enabled.count - 1)]
    }

    // MARK: Reports

    private func report(_ event: ControlReport.Event, _ index: Int, at time: Instant, into effects: inout [RigEffect]) {
        let control = controls[index]
        effects.append(
            .report(
                .control(
                    ControlReport(
                        time: time, control: control.spec.name, event: event, value: control.value, text: control.text,
                        enabled: control.enabled))))
    }

    private func report(
        _ index: Int, source: ControlSource, reason: String? = nil, at time: Instant, into effects: inout [RigEffect]
    ) {
        let control = controls[index]
        effects.append(
            .report(
                .control(
                    ControlReport(
                        time: time, control: control.spec.name, value: control.value, text: control.text,
                        enabled: control.enabled, source: source, reason: reason ?? control.disabled))))
    }

    // MARK: Resolving targets

    private func index(named name: String) -> Int? {
        controls.firstIndex { $0.spec.name.lowercased() == name.lowercased() }
    }

    /// Resolves every control again, reporting those whose state or value
    /// the camera's controls changed (`source`); the camera opening or closing
    /// is reported by its own lines (nil).
    private mutating func refreshAll(source: ControlSource?, at time: Instant, book: RigBook, into effects: inout [RigEffect]) {
        for index in controls.indices {
            let before = controls[index]
            resolve(index, book: book)
            let after = controls[index]
            guard let source, before.known, after.known else { continue }
            if before.enabled != after.enabled || (after.pending == 0 && before.value != after.value) {
                report(index, source: source, at: time, into: &effects)
            }
        }
    }

    /// Reads every recorder setting's value from the books again, after an
    /// action may have changed one.
    mutating func follow(_ book: RigBook) {
        for index in controls.indices { refresh(index, book: book) }
    }

    /// Reads a recorder setting's value from the books again.
    private mutating func refresh(_ index: Int, book: RigBook) {
        if case .recorder = controls[index].drive { resolve(index, book: book) }
    }

    /// What the control drives on the camera there is now, its scale and value.
    private mutating func resolve(_ index: Int, book: RigBook) {
        var control = controls[index]
        let previous = control.value
        control.resolve(catalog: catalog, book: book, detent: settings.detent)
        if control.pending > 0 { control.value = previous }
        if !control.spec.enabled { control.disabled = "disabled in the profile" }
        controls[index] = control
    }

    /// `text` as a value of the control: a number, or a picker's title or index.
    private func parse(_ text: String, for index: Int) -> Double? {
        let control = controls[index]
        if case .titles(let titles) = control.scale {
            if let found = titles.firstIndex(where: { $0.lowercased() == text.lowercased() }) { return Double(found) }
            if let number = Int(text), titles.indices.contains(number) { return Double(number) }
            return nil
        }
        return Double(text)
    }

    /// The value `control.reset` returns to: the driver's default, or the profile's.
    private func defaultValue(_ index: Int) -> Double? {
        let control = controls[index]
        switch control.drive {
        case .recorder(let setting):
            return RecorderSettingValues.value(setting, picker: control.isPicker, in: RigBook(camera: camera))
        case .v4l2(let camera):
            return control.value(ofRaw: camera.defaultValue)
        case .exposureBias, .exposureTime:
            return 0
        case .none:
            return nil
        }
    }
}

/// What a `control.*` action asks of the controls.
public enum ControlAction: Hashable, Sendable {
    /// Show the overlay of the current control.
    case show
    /// Select the next or previous enabled control and show it.
    case next, previous
    /// Move the current control by detents; nil: by the axis delta that ran it.
    case adjust(Int?)
    /// Set a control, by its name, to a value (a number, or a picker's title or index).
    case set(String, String)
    /// Return a control to its default.
    case reset(String)
}

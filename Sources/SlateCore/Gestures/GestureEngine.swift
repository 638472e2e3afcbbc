/// Identifies a device attached to a rig.
public typealias SourceID = Int

/// What a pressed button is bound to once the secondary fallback is applied.
enum PressTarget: Equatable {
    case role(Role)
    case direct(Int)
}

/// Why the engine ignored a press of a bound button.
enum IgnoreCause: Equatable {
    /// Another button's event is in progress: its input and code.
    case inProgress(input: Int, code: UInt16)
    case captureInactive
}

/// A button's phase, a gesture whose handler must run, or a press the engine ignored.
enum EngineOutput {
    case phase(source: SourceID, input: Int, code: UInt16, role: Role?, phase: Phase, time: Instant)
    case gesture(source: SourceID, input: Int, code: UInt16, target: PressTarget, gesture: Gesture, time: Instant)
    case ignored(source: SourceID, input: Int, code: UInt16, cause: IgnoreCause, time: Instant)
}

/// The gesture state machine: a bound button's phases and the gestures on top of
/// them (the counterpart of AVCaptureEventInteraction).
///
/// Press gives `began`, release gives `ended`; `cancelled` when capture stops,
/// the device goes away, the stream ends or a resync finds the button up.
/// Only one button's event is in progress at a time: presses of other bound
/// buttons meanwhile are ignored, and reported as such. On top of the phases it recognizes click,
/// hold (with its release) and double click. It never does I/O or reads a clock:
/// the caller passes every instant and fires timers with `fireTimers(upTo:)`.
struct GestureEngine {
    private struct Press {
        var source: SourceID
        var input: Int
        var code: UInt16
        var target: PressTarget
        var holdDeadline: Instant?
        var held = false
        /// The second press of a possible double click.
        var second = false
    }

    private struct PendingClick {
        var source: SourceID
        var input: Int
        var code: UInt16
        var role: Role
        var deadline: Instant
    }

    private let bindings: Bindings
    private let secondaryFallsBack: Bool
    private let holdThreshold: Duration
    private let doubleWindow: Duration
    private var press: Press?
    private var pending: PendingClick?
    private(set) var isActive: Bool

    init(bindings: Bindings, capture: CaptureSpec, active: Bool) {
        self.bindings = bindings
        self.secondaryFallsBack = capture.handlingRole(for: .secondary) == .primary
        self.holdThreshold = capture.holdThreshold
        self.doubleWindow = capture.doubleWindow
        self.isActive = active
    }

    /// The earliest timer: a hold threshold or the end of a double-click window.
    var nextDeadline: Instant? {
        let hold = press.flatMap { $0.held ? nil : $0.holdDeadline }
        switch (hold, pendingDeadline) {
        case (let h?, let p?): return min(h, p)
        case (let h, let p): return h ?? p
        }
    }

    /// A waiting click's window does not run out while its second press is down.
    private var pendingDeadline: Instant? { press?.second == true ? nil : pending?.deadline }

    /// A bound button changed: `value` 1 is a press, 0 a release, 2 an autorepeat (ignored).
    /// A press while capture is inactive is reported as ignored.
    mutating func key(
        source: SourceID, input: Int, code: UInt16, binding: Int16, value: Int32, time: Instant,
        into out: inout [EngineOutput]
    ) {
        guard isActive else {
            if value == 1 {
                out.append(.ignored(source: source, input: input, code: code, cause: .captureInactive, time: time))
            }
            return
        }
        switch value {
        case 1: pressed(source: source, input: input, code: code, binding: binding, time: time, into: &out)
        case 0: released(source: source, code: code, time: time, into: &out)
        default: return
        }
    }

    /// After SYN_DROPPED, the device's real state of a button: a button in progress
    /// found up is cancelled; a press that was lost is not started late.
    mutating func resync(source: SourceID, code: UInt16, down: Bool, time: Instant, into out: inout [EngineOutput]) {
        if !down, let press, press.source == source, press.code == code { cancel(time: time, into: &out) }
    }

    mutating func sourceRemoved(_ source: SourceID, time: Instant, into out: inout [EngineOutput]) {
        if press?.source == source { cancel(time: time, into: &out) }
    }

    /// Capture became active or inactive; inactive cancels the event in progress
    /// and forgets a click waiting for its second half.
    mutating func setActive(_ active: Bool, time: Instant, into out: inout [EngineOutput]) {
        guard active != isActive else { return }
        if !active {
            cancel(time: time, into: &out)
            pending = nil
        }
        isActive = active
    }

    /// The input ended at `time` (its last event): a button still down is cancelled and a
    /// click waiting for a possible double is delivered now; later timers never fire.
    mutating func endOfStream(time: Instant, into out: inout [EngineOutput]) {
        cancel(time: time, into: &out)
        flushPending(at: time, into: &out)
    }

    /// Fires every timer due at or before `time`, in time order.
    mutating func fireTimers(upTo time: Instant, into out: inout [EngineOutput]) {
        while let deadline = nextDeadline, deadline <= time {
            if pendingDeadline == deadline {
                flushPending(at: deadline, into: &out)
            } else if var current = press {
                current.held = true
                press = current
                if current.second { flushPending(at: deadline, into: &out) }
                out.append(
                    .gesture(
                        source: current.source, input: current.input, code: current.code, target: current.target,
                        gesture: .hold, time: deadline))
            }
        }
    }

    private mutating func pressed(
        source: SourceID, input: Int, code: UInt16, binding: Int16, time: Instant, into out: inout [EngineOutput]
    ) {
        if let current = press {
            out.append(
                .ignored(
                    source: source, input: input, code: code,
                    cause: .inProgress(input: current.input, code: current.code), time: time))
            return
        }
        let target: PressTarget
        if binding >= Bindings.directBase {
            target = .direct(Int(binding - Bindings.directBase))
        } else {
            let bound: Role = binding == 0 ? .primary : .secondary
            target = .role(bound == .secondary && secondaryFallsBack ? .primary : bound)
        }
        var second = false
        if let pending {
            if pending.source == source, pending.code == code {
                second = true
            } else {
                flushPending(at: time, into: &out)
            }
        }
        var hold: Instant?
        if case .role(let role) = target, bindings.handler(role, .hold) != nil { hold = time + holdThreshold }
        press = Press(source: source, input: input, code: code, target: target, holdDeadline: hold, second: second)
        out.append(.phase(source: source, input: input, code: code, role: target.role, phase: .began, time: time))
    }

    private mutating func released(source: SourceID, code: UInt16, time: Instant, into out: inout [EngineOutput]) {
        guard let current = press, current.source == source, current.code == code else { return }
        press = nil
        out.append(
            .phase(source: source, input: current.input, code: code, role: current.target.role, phase: .ended, time: time))
        let gesture: Gesture
        switch current.target {
        case .direct:
            gesture = .click
        case .role(let role):
            if current.held {
                guard bindings.handler(role, .release) != nil else { return }
                gesture = .release
            } else if current.second {
                pending = nil
                gesture = .double
            } else if bindings.handler(role, .double) != nil {
                pending = PendingClick(
                    source: source, input: current.input, code: code, role: role, deadline: time + doubleWindow)
                return
            } else {
                gesture = .click
            }
        }
        out.append(
            .gesture(source: source, input: current.input, code: code, target: current.target, gesture: gesture, time: time))
    }

    /// Cancels the event in progress. A hold already delivered gets its release,
    /// so every hold is balanced; a click waiting on this second press is delivered.
    private mutating func cancel(time: Instant, into out: inout [EngineOutput]) {
        guard let current = press else { return }
        press = nil
        out.append(
            .phase(
                source: current.source, input: current.input, code: current.code, role: current.target.role,
                phase: .cancelled, time: time))
        if current.held, case .role(let role) = current.target, bindings.handler(role, .release) != nil {
            out.append(
                .gesture(
                    source: current.source, input: current.input, code: current.code, target: current.target,
                    gesture: .release, time: time))
        }
        if current.second { flushPending(at: time, into: &out) }
    }

    private mutating func flushPending(at time: Instant, into out: inout [EngineOutput]) {
        guard let pending else { return }
        self.pending = nil
        out.append(click(pending, at: time))
    }

    private func click(_ pending: PendingClick, at time: Instant) -> EngineOutput {
        .gesture(
            source: pending.source, input: pending.input, code: pending.code, target: .role(pending.role),
            gesture: .click, time: time)
    }
}

extension PressTarget {
    /// The role reported with a button's phases; nil for a button bound directly to actions.
    var role: Role? {
        if case .role(let role) = self { return role }
        return nil
    }
}

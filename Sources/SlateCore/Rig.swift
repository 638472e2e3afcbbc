/// A running rig: the profile's inputs bound to devices, the capture engine,
/// and the macro runner driving a recorder.
///
/// Callers attach devices, feed their events in time order and read `reports`.
/// Timers (hold, double click, `wait`) fire as time passes: automatically
/// before each event, or explicitly with `advance(to:)`.
public final class Rig {
    /// A device bound to one of the profile's inputs.
    public struct Source: Sendable {
        public var identity: DeviceIdentity
        public var input: Int
    }

    /// The result of attaching a device.
    public enum Attachment: Sendable {
        case bound(SourceID, input: String)
        /// No input matches; one entry per input says why.
        case unmatched([InputMatch])
    }

    public let profile: Profile
    private let bindings: Bindings
    private var engine: CaptureEngine
    private var runner: MacroRunner
    public private(set) var sources: [Source?] = []
    /// The input index of each source, -1 once detached (read on every event).
    private var sourceInputs: [Int] = []
    /// Everything that happened so far, in time order; callers may empty it.
    public var reports: [Report] = []
    private var engineOutput: [EngineOutput] = []
    private var nextDeadline: Instant?

    public init(profile: Profile, recorder: Recorder, captureActive: Bool = true) {
        self.profile = profile
        bindings = Bindings(profile: profile)
        engine = CaptureEngine(bindings: bindings, capture: profile.capture, active: captureActive)
        runner = MacroRunner(recorder: recorder, sounds: profile.sounds)
        engineOutput.reserveCapacity(8)
    }

    public var isCaptureActive: Bool { engine.isActive }

    /// Binds `device` to the first input it matches.
    public func attach(_ device: DeviceIdentity) -> Attachment {
        guard let input = profile.inputIndex(matching: device) else {
            return .unmatched(profile.explainMatch(device))
        }
        sources.append(Source(identity: device, input: input))
        sourceInputs.append(input)
        return .bound(sources.count - 1, input: profile.inputs[input].name)
    }

    /// The device went away: its event in progress is cancelled.
    public func detach(_ source: SourceID, at time: Instant) {
        advance(to: time)
        guard sources.indices.contains(source), sources[source] != nil else { return }
        engine.sourceRemoved(source, time: time, into: &engineOutput)
        sources[source] = nil
        sourceInputs[source] = -1
        dispatch()
    }

    /// One event from a device. `resync` marks the state changes libevdev reports
    /// after SYN_DROPPED.
    public func handle(_ event: InputEvent, from source: SourceID, resync: Bool = false) {
        if let deadline = nextDeadline, deadline <= event.time { advance(to: event.time) }
        guard sourceInputs.indices.contains(source) else { return }
        let input = sourceInputs[source]
        guard input >= 0 else { return }
        let code = Int(event.code)
        switch event.type {
        case EventType.key where code < Bindings.keyCount:
            let binding = bindings.keyTables[input][code]
            guard binding != Bindings.unbound else { return }
            if resync {
                engine.resync(source: source, code: event.code, down: event.value != 0, time: event.time, into: &engineOutput)
            } else {
                engine.key(
                    source: source, input: input, code: event.code, binding: binding, value: event.value,
                    time: event.time, into: &engineOutput)
            }
            if !engineOutput.isEmpty { dispatch() }
        case EventType.rel where code < Bindings.relCount:
            let index = Int(bindings.axisTables[input][code])
            guard index > 0, engine.isActive, event.value != 0, !resync else { return }
            let trigger = TriggerInfo(
                input: profile.inputs[input].name, code: EventCode(type: event.type, code: event.code),
                role: nil, gesture: nil)
            runner.run(
                bindings.axisActions[input][index - 1], trigger: trigger, value: Double(event.value),
                feedback: false, at: event.time, into: &reports)
            updateDeadline()
        default:
            return
        }
    }

    /// Whether the rig uses `event`: a bound button or axis of the source's input.
    /// A grabbed device passes the others on to its clone.
    public func uses(_ event: InputEvent, from source: SourceID) -> Bool {
        guard sourceInputs.indices.contains(source), sourceInputs[source] >= 0 else { return false }
        let input = sourceInputs[source], code = Int(event.code)
        switch event.type {
        case EventType.key where code < Bindings.keyCount: return bindings.keyTables[input][code] != Bindings.unbound
        case EventType.rel where code < Bindings.relCount: return bindings.axisTables[input][code] > 0
        default: return false
        }
    }

    /// The profile input a source is bound to.
    public func input(of source: SourceID) -> InputSpec? {
        guard sourceInputs.indices.contains(source), sourceInputs[source] >= 0 else { return nil }
        return profile.inputs[sourceInputs[source]]
    }

    /// Capture became active or inactive (inactive cancels the event in progress).
    public func setCaptureActive(_ active: Bool, at time: Instant) {
        advance(to: time)
        engine.setActive(active, time: time, into: &engineOutput)
        dispatch()
    }

    /// Fires every timer due at or before `time`, in time order.
    public func advance(to time: Instant) {
        while let deadline = nextDeadline, deadline <= time {
            if let engineDeadline = engine.nextDeadline, engineDeadline == deadline {
                engine.fireTimers(upTo: deadline, into: &engineOutput)
                dispatch()
            } else {
                runner.fireTimers(upTo: deadline, into: &reports)
                updateDeadline()
            }
        }
    }

    /// The input ended at `time`, its last event: buttons still down are cancelled,
    /// and no timer past `time` fires.
    public func finish(at time: Instant) {
        advance(to: time)
        engine.endOfStream(time: time, into: &engineOutput)
        dispatch()
    }

    /// When the next timer is due, if any.
    public var nextTimer: Instant? { nextDeadline }

    private func dispatch() {
        for output in engineOutput {
            switch output {
            case let .capture(_, input, code, role, phase, time):
                reports.append(
                    .capture(
                        CaptureReport(
                            time: time, input: profile.inputs[input].name,
                            code: EventCode(type: EventType.key, code: code), role: role, phase: phase)))
            case let .gesture(_, input, code, target, gesture, time):
                let steps: [Step]?
                switch target {
                case .role(let role): steps = bindings.handler(role, gesture)
                case .direct(let index): steps = bindings.directActions[input][index]
                }
                guard let steps else { continue }
                let trigger = TriggerInfo(
                    input: profile.inputs[input].name, code: EventCode(type: EventType.key, code: code),
                    role: target.role, gesture: gesture)
                runner.run(steps, trigger: trigger, value: nil, feedback: bindings.remote[input], at: time, into: &reports)
            }
        }
        engineOutput.removeAll(keepingCapacity: true)
        updateDeadline()
    }

    private func updateDeadline() {
        switch (engine.nextDeadline, runner.nextDeadline) {
        case let (e?, r?): nextDeadline = min(e, r)
        case let (e, r): nextDeadline = e ?? r
        }
    }
}

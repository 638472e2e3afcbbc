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
    /// Each source's bound events since its last SYN_REPORT (the evdev frame),
    /// with their resync flag.
    private var frames: [[(event: InputEvent, resync: Bool)]] = []
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
        frames.append([])
        return .bound(sources.count - 1, input: profile.inputs[input].name)
    }

    /// The device went away: its event in progress is cancelled.
    public func detach(_ source: SourceID, at time: Instant) {
        advance(to: time)
        guard sources.indices.contains(source), sources[source] != nil else { return }
        engine.sourceRemoved(source, time: time, into: &engineOutput)
        sources[source] = nil
        sourceInputs[source] = -1
        frames[source].removeAll()
        dispatch()
    }

    /// One event from a device. `resync` marks the state changes libevdev reports
    /// after SYN_DROPPED. Presses of buttons the input does not bind are reported
    /// as ignored. Bound events take effect at their frame's SYN_REPORT, as
    /// the evdev protocol commits them; key releases in a frame closed by
    /// `SYN_REPORT 1` are the kernel's own (a device unplugged, or reset on resume)
    /// and cancel rather than end.
    public func handle(_ event: InputEvent, from source: SourceID, resync: Bool = false) {
        if let deadline = nextDeadline, deadline <= event.time { advance(to: event.time) }
        guard sourceInputs.indices.contains(source) else { return }
        let input = sourceInputs[source]
        guard input >= 0 else { return }
        let code = Int(event.code)
        switch event.type {
        case EventType.syn where event.code == SynCode.report:
            if !frames[source].isEmpty { commit(source, input: input, synthetic: event.value == 1) }
        case EventType.key where code < Bindings.keyCount && bindings.keyTables[input][code] != Bindings.unbound:
            frames[source].append((event, resync))
        case EventType.key where event.value == 1 && !resync:
            frames[source].append((event, resync))
        case EventType.rel where code < Bindings.relCount && bindings.axisTables[input][code] > 0:
            frames[source].append((event, resync))
        default:
            return
        }
    }

    private func commit(_ source: SourceID, input: Int, synthetic: Bool) {
        for index in frames[source].indices {
            let (event, resync) = frames[source][index]
            let code = Int(event.code)
            if event.type == EventType.key {
                if code >= Bindings.keyCount || bindings.keyTables[input][code] == Bindings.unbound {
                    reports.append(
                        .ignored(
                            IgnoredReport(
                                time: event.time, input: profile.inputs[input].name,
                                code: EventCode(type: EventType.key, code: event.code), reason: .notBound)))
                } else if resync || (synthetic && event.value == 0) {
                    engine.resync(source: source, code: event.code, down: event.value != 0, time: event.time, into: &engineOutput)
                } else {
                    engine.key(
                        source: source, input: input, code: event.code, binding: bindings.keyTables[input][code],
                        value: event.value, time: event.time, into: &engineOutput)
                }
            } else if engine.isActive, event.value != 0, !resync {
                let trigger = TriggerInfo(
                    input: profile.inputs[input].name, code: EventCode(type: event.type, code: event.code),
                    role: nil, gesture: nil)
                runner.run(
                    bindings.axisActions[input][Int(bindings.axisTables[input][code]) - 1], trigger: trigger,
                    value: Double(event.value), feedback: false, at: event.time, into: &reports)
            }
        }
        frames[source].removeAll(keepingCapacity: true)
        dispatch()
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
            case let .ignored(_, input, code, cause, time):
                let reason: IgnoredReport.Reason
                switch cause {
                case .captureInactive: reason = .captureInactive
                case let .inProgress(other, otherCode):
                    reason = .inProgress(
                        input: profile.inputs[other].name, code: EventCode(type: EventType.key, code: otherCode))
                }
                reports.append(
                    .ignored(
                        IgnoredReport(
                            time: time, input: profile.inputs[input].name,
                            code: EventCode(type: EventType.key, code: code), reason: reason)))
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

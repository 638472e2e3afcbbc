/// Runs a timeline through a rig machine in virtual time: the engine and the
/// macro runner see the events' own timestamps, as fast as the caller steps.
/// The effects collect in `driver`. With a modelled camera, the controls it
/// is asked to set are answered at once, as a camera session answers.
public final class Replay {
    public let driver: RigDriver
    public let timeline: Timeline
    /// The source each device is bound to while present.
    private var sources: [SourceID?]
    private var emulations: [DropEmulation]
    private var index = 0
    private var finished = false
    /// The camera whose controls are modelled; nil when a real one answers.
    public private(set) var camera: ModelledCamera?

    /// Fails when no device of the timeline matches an input of the profile.
    public init(
        profile: Profile, timeline: Timeline, book: RigBook = RigBook(), captureActive: Bool = true,
        camera: ModelledCamera? = nil
    ) throws(ReplayError) {
        let matches = timeline.devices.map { profile.explainMatch($0) }
        if !timeline.devices.isEmpty, !matches.contains(where: { $0.contains(where: \.matches) }) {
            throw ReplayError(devices: timeline.devices, matches: matches, profile: profile.file)
        }
        driver = RigDriver(RigMachine(profile: profile, book: book, captureActive: captureActive))
        self.timeline = timeline
        origin = timeline.origin ?? Instant(microseconds: 0)
        sources = Array(repeating: nil, count: timeline.devices.count)
        emulations = Array(repeating: DropEmulation(), count: timeline.devices.count)
        self.camera = camera
        if let camera { handle(.fact(.cameraControls(camera.controls, source: .camera), at: origin)) }
        for device in timeline.devices.indices where timeline.present[device] { attach(device) }
    }

    /// The instant reported times count from: the recording's first press,
    /// turn or switch (see ``Timeline/origin``).
    public let origin: Instant

    /// The instant of the next thing to happen: an item or a timer; nil when done.
    public var nextDeadline: Instant? {
        guard !finished else { return nil }
        let item = index < timeline.items.count ? timeline.items[index].time : nil
        switch (item, driver.machine.nextDeadline) {
        case let (i?, t?): return min(i, t)
        case let (i?, nil): return i
        default: return lastTime
        }
    }

    private var lastTime: Instant { timeline.items.last?.time ?? origin }

    /// Processes everything up to and including `time` (timers, then items).
    public func advance(to time: Instant) {
        while index < timeline.items.count, timeline.items[index].time <= time {
            apply(timeline.items[index])
            index += 1
        }
        if index == timeline.items.count {
            if !finished {
                finished = true
                handle(.endOfStream(at: lastTime))
            }
        } else {
            handle(.time(time))
        }
    }

    /// Another program set the modelled camera's control `key` at `time`.
    public func changeFromOutside(_ key: String, to value: Int64, at time: Instant) {
        guard var camera else { return }
        let facts = camera.changeFromOutside(key, to: value)
        self.camera = camera
        for fact in facts { handle(.fact(fact, at: time)) }
    }

    /// Hands `input` to the rig; the modelled camera answers the controls it is asked to set.
    private func handle(_ input: RigInput) {
        let start = driver.effects.count
        driver.handle(input)
        guard var camera else { return }
        var facts: [(RigFact, Instant)] = []
        for effect in driver.effects[start...] {
            switch effect {
            case .camera(.setControl(let id, let value), let time): facts += camera.set(id, value).map { ($0, time) }
            case .preset(let command, let time): facts += camera.carryOut(command).map { ($0, time) }
            default: break
            }
        }
        self.camera = camera
        for (fact, time) in facts { handle(.fact(fact, at: time)) }
    }

    /// Runs the whole timeline.
    public func run() {
        while let next = nextDeadline { advance(to: next) }
    }

    private func apply(_ entry: (time: Instant, item: Timeline.Item)) {
        switch entry.item {
        case .event(let device, let event):
            guard let source = sources[device] else { return }
            emulations[device].deliver(event) { self.handle(.event($0, from: source, resync: $1)) }
        case .deviceAdded(let device):
            handle(.time(entry.time))
            if sources[device] == nil { attach(device) }
        case .deviceRemoved(let device):
            if let source = sources[device] { handle(.detached(source, at: entry.time)) }
            sources[device] = nil
            emulations[device] = DropEmulation()
        case .captureActive(let active):
            handle(.captureActive(active, at: entry.time))
        }
    }

    private func attach(_ device: Int) {
        if case .bound(let source, _) = driver.attach(timeline.devices[device]) { sources[device] = source }
    }
}

/// No device of a recording matches the profile; says why for each input,
/// like `libinput quirks list --verbose`.
public struct ReplayError: Error, CustomStringConvertible {
    public var devices: [DeviceIdentity]
    public var matches: [[InputMatch]]
    public var profile: String

    public var description: String {
        var lines = ["no device of the recording matches an input of \(profile)"]
        for (device, inputs) in zip(devices, matches) {
            let name = device.name.isEmpty ? "without a name" : "'\(device.name)'"
            lines.append(
                "  device \(name) (bus \(Bus.name(of: device.bus)), \(Hex.id(device.vendor)):\(Hex.id(device.product))):")
            for input in inputs {
                lines.append("    input \(input.input): " + input.reasons.joined(separator: "; or "))
            }
        }
        return lines.joined(separator: "\n")
    }
}

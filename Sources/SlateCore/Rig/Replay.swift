/// Runs a timeline through a rig machine in virtual time: the engine and the
/// macro runner see the events' own timestamps, as fast as the caller steps.
/// The effects collect in `driver`, whose modelled camera, when given,
/// answers the controls and presets asked of it.
public final class Replay {
    public let driver: RigDriver
    public let timeline: Timeline
    /// The source each device is bound to while present.
    private var sources: [SourceID?]
    private var emulations: [DropEmulation]
    private var index = 0
    private var finished = false

    /// Fails when no device of the timeline matches an input of the profile.
    public init(
        profile: Profile, timeline: Timeline, book: RigBook = RigBook(), captureActive: Bool = true,
        camera: ModelledCamera? = nil
    ) throws(ReplayError) {
        let matches = timeline.devices.map { profile.explainMatch($0) }
        if !timeline.devices.isEmpty, !matches.contains(where: { $0.contains(where: \.matches) }) {
            throw ReplayError(devices: timeline.devices, matches: matches, profile: profile.file)
        }
        self.timeline = timeline
        origin = timeline.origin ?? Instant(microseconds: 0)
        sources = Array(repeating: nil, count: timeline.devices.count)
        emulations = Array(repeating: DropEmulation(), count: timeline.devices.count)
        driver = RigDriver(RigMachine(profile: profile, book: book, captureActive: captureActive), camera: camera)
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
        case (let i?, let t?): return min(i, t)
        case (let i?, nil): return i
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
                driver.handle(.endOfStream(at: lastTime))
            }
        } else {
            driver.handle(.time(time))
        }
    }

    /// Runs the whole timeline.
    public func run() {
        while let next = nextDeadline { advance(to: next) }
    }

    private func apply(_ entry: (time: Instant, item: Timeline.Item)) {
        switch entry.item {
        case .event(let device, let event):
            guard let source = sources[device] else { return }
            let driver = self.driver
            emulations[device].deliver(event) { driver.handle(.event($0, from: source, resync: $1)) }
        case .deviceAdded(let device):
            driver.handle(.time(entry.time))
            if sources[device] == nil { attach(device) }
        case .deviceRemoved(let device):
            if let source = sources[device] { driver.handle(.detached(source, at: entry.time)) }
            sources[device] = nil
            emulations[device] = DropEmulation()
        case .captureActive(let active):
            driver.handle(.captureActive(active, at: entry.time))
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

/// Input for a replay: devices and what happened to them, in time order.
/// Built from a recording, or from a test transcript (which can also unplug
/// devices and switch capture on and off).
public struct Timeline: Sendable {
    public enum Item: Sendable {
        case event(device: Int, InputEvent)
        case deviceAdded(Int)
        case deviceRemoved(Int)
        case captureActive(Bool)
    }

    public var devices: [DeviceIdentity]
    /// Devices present from the start (the others arrive with `deviceAdded`).
    public var present: [Bool]
    public var items: [(time: Instant, item: Item)]

    public init(devices: [DeviceIdentity], present: [Bool]? = nil, items: [(time: Instant, item: Item)]) {
        self.devices = devices
        self.present = present ?? Array(repeating: true, count: devices.count)
        self.items = items
    }

    /// The first instant of the timeline.
    public var start: Instant? { items.first?.time }

    /// The origin of a replay's reported times: the first button, axis or
    /// switch event, or item that is not an event (a device added, capture
    /// switched). Frames before it with nothing a user did (a lone SYN_REPORT,
    /// MSC or LED events) do not count; when every item is such, the first item.
    public var origin: Instant? {
        let first = items.first { entry in
            guard case .event(_, let event) = entry.item else { return true }
            return Self.isUserEvent(event)
        }
        return first?.time ?? start
    }

    /// Whether a user made the event: a button, an axis or a switch.
    static func isUserEvent(_ event: InputEvent) -> Bool {
        switch event.type {
        case EventType.key, EventType.rel, EventType.abs, EventType.sw: true
        default: false
        }
    }

    /// The same timeline starting at `start`: every item and event time moved
    /// by the same amount, to play a recording on a live clock.
    public func moved(toStart start: Instant) -> Timeline {
        guard let first = self.start else { return self }
        let offset = start - first
        var moved = self
        moved.items = items.map { entry in
            guard case .event(let device, var event) = entry.item else { return (entry.time + offset, entry.item) }
            event.time = event.time + offset
            return (entry.time + offset, .event(device: device, event))
        }
        return moved
    }
}

/// The evdev client contract for replayed events, as libevdev implements it:
/// after SYN_DROPPED, events up to and including the next SYN_REPORT are lost,
/// then each button whose state differs from what the client saw is reported
/// as a resync change, closed by that SYN_REPORT.
struct DropEmulation {
    private var truth = [Bool](repeating: false, count: Bindings.keyCount)
    private var seen = [Bool](repeating: false, count: Bindings.keyCount)
    private var dropping = false

    /// What the client gets for `event`: nothing, the event itself, or resync changes.
    mutating func deliver(_ event: InputEvent, to body: (InputEvent, Bool) -> Void) {
        let code = Int(event.code)
        switch event.type {
        case EventType.key where code < Bindings.keyCount:
            truth[code] = event.value != 0
            guard !dropping else { return }
            seen[code] = event.value != 0
            body(event, false)
        case EventType.syn where event.code == SynCode.dropped:
            dropping = true
        case EventType.syn where event.code == SynCode.report && dropping:
            dropping = false
            for code in 0..<Bindings.keyCount where truth[code] != seen[code] {
                seen[code] = truth[code]
                body(InputEvent(time: event.time, type: EventType.key, code: UInt16(code), value: truth[code] ? 1 : 0), true)
            }
            body(event, false)
        default:
            if !dropping { body(event, false) }
        }
    }
}

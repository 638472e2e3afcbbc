import SlateCore
import SlateDevices
import SlateSystem

/// `slate setup`'s ear: every input device with keys or buttons that this user
/// can read, watched (not grabbed) until buttons are pressed on one of them;
/// what was pressed there, in order, once the presses stop for a while.
public final class PressListener {
    /// A device that was pressed, and its keys and buttons in the order first pressed.
    public struct Heard: Sendable {
        public var path: String
        public var identity: DeviceIdentity
        public var codes: [EventCode]

        public init(path: String, identity: DeviceIdentity, codes: [EventCode]) {
            self.path = path
            self.identity = identity
            self.codes = codes
        }
    }

    /// The devices watched: node and identity.
    public let devices: [(path: String, identity: DeviceIdentity)]
    /// The devices this user cannot read, why, and what would give them
    /// (`DeviceAccess`; nil when the reason is not a permission).
    public let unreadable: [(path: String, name: String, reason: String, access: String?)]
    private let opened: [EvdevDevice]

    /// Opens every input device with keys or buttons that udev lists.
    public init() throws {
        let udev = try Udev()
        var opened: [EvdevDevice] = []
        var unreadable: [(path: String, name: String, reason: String, access: String?)] = []
        let access = LoginSeat.access()
        for node in udev.inputNodes() {
            do {
                let device = try EvdevDevice(path: node.devnode)
                if device.identity.codes.contains(where: { $0.type == 1 }) { opened.append(device) }
            } catch {
                unreadable.append(
                    (node.devnode, node.properties["NAME"] ?? "", error.reason, access.advice(for: node, after: error)))
            }
        }
        self.opened = opened
        self.unreadable = unreadable
        devices = opened.map { ($0.path, $0.identity) }
    }

    /// The longest the presses on a device are taken for, however they go on.
    public static let longest = Duration.seconds(60)

    /// Waits up to `first` for a press, then takes the presses on that device
    /// until none comes for `quiet` (at most `longest` from the first, and
    /// `RigSetup.mostButtons` buttons); nil when nothing was pressed.
    public func listen(first: Duration, quiet: Duration) throws -> Heard? {
        let loop = try EventLoop()
        try loop.handleSignals([Signal.interrupt, Signal.terminate]) { _ in loop.stop() }
        var chosen: EvdevDevice?
        var events: [InputEvent] = []
        var deadline = MonotonicClock.now() + first
        var end: Instant?
        for device in opened {
            try loop.watch(device.fd) {
                _ = device.readAvailable { event, _ in
                    guard event.type == 1, event.value == 1, chosen == nil || chosen === device else { return }
                    let now = MonotonicClock.now()
                    let last = end ?? now + Self.longest
                    chosen = device
                    end = last
                    // Only a button not pressed before is kept: what is kept stays small.
                    if !events.contains(where: { $0.code == event.code }) { events.append(event) }
                    deadline = events.count >= RigSetup.mostButtons ? now : min(now + quiet, last)
                }
            }
        }
        try loop.run(
            nextDeadline: { deadline },
            afterWake: { if MonotonicClock.now() >= deadline { loop.stop() } })
        guard let chosen else { return nil }
        return Heard(path: chosen.path, identity: chosen.identity, codes: RigSetup.pressed(events))
    }
}

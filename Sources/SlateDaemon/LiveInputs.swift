import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem
import SystemPackage

/// The live side of a rig: finds input devices with libudev, binds those the
/// profile matches, reads them with libevdev on the event loop, follows hotplug,
/// grabs them while capture is active, and feeds their events to the rig.
///
/// A node that exists but cannot be opened yet (EACCES while udev applies the
/// uaccess ACL) is retried with backoff for as long as it exists.
public final class LiveInputs {
    /// A bound event node.
    private struct OpenNode {
        var device: EvdevDevice
        var source: SourceID
        var node: UdevInputNode
        var input: InputSpec
        /// Grabbing the device takes a uinput clone (`InputSpec.needsClone`).
        var needsClone: Bool
    }

    /// A node waiting to become readable.
    private struct PendingNode {
        var node: UdevInputNode
        var retryAt: Instant
        var delay: Int64
        var since: Instant
    }

    /// Retry delays for unreadable nodes: from 50 ms, doubling, at most 1 s.
    static let firstRetry: Int64 = 50_000
    static let maxRetry: Int64 = 1_000_000
    /// After this long without access, a warning suggests the udev rules.
    static let accessWarning: Int64 = 5_000_000

    private let rig: RigDriver
    private let loop: EventLoop
    private let udev: Udev
    private var deviceWatch: Udev.DeviceWatch?
    private let log: Logger
    private var open: [String: OpenNode] = [:]
    private var pending: [String: PendingNode] = [:]
    private var groupCodes: [String: Set<EventCode>] = [:]
    private var warned: Set<String> = []
    /// Devices to grab once no key of theirs is down.
    private var waitingToGrab: Set<String> = []
    /// Event nodes of Slate's own uinput clones, which must never be bound.
    private var clones: Set<String> = []
    /// The LEDs the tally set, by input and code: a device bound later gets them too.
    private var leds: [String: [UInt16: Bool]] = [:]

    public init(rig: RigDriver, loop: EventLoop, logger: Logger) throws(OperationError) {
        self.rig = rig
        self.loop = loop
        self.log = logger
        udev = try Udev()
    }

    deinit { stop() }

    /// Starts listening for hotplug, then binds the devices present now.
    public func start() throws(OperationError) {
        let deviceWatch = try Udev.DeviceWatch(udev)
        self.deviceWatch = deviceWatch
        try loop.watch(deviceWatch.fd) { [unowned self] in self.hotplug() }
        for node in udev.inputNodes() { consider(node, at: MonotonicClock.now()) }
    }

    /// When the next unreadable node should be tried again.
    public var nextDeadline: Instant? { pending.values.map(\.retryAt).min() }

    /// Tries again every unreadable node whose retry is due.
    public func retryDue(now: Instant) {
        for (path, entry) in pending where entry.retryAt <= now && open[path] == nil {
            consider(entry.node, at: now)
        }
    }

    /// Capture became active or inactive: tells the rig and grabs or releases devices.
    public func setCaptureActive(_ active: Bool, at time: Instant) {
        rig.handle(.captureActive(active, at: time))
        for path in open.keys { applyGrab(path) }
    }

    /// Ungrabs and closes every device, with the tally's LEDs dark.
    public func releaseAll() {
        for (_, entry) in open {
            for (code, on) in leds[entry.input.name] ?? [:] where on { setLED(code, on: false, of: entry.device) }
            loop.unwatch(entry.device.fd)
            entry.device.ungrab()
            destroyClone(of: entry.device)
        }
        open.removeAll()
        pending.removeAll()
    }

    /// Releases every device and stops following hotplug, for good.
    public func stop() {
        releaseAll()
        if let deviceWatch { loop.unwatch(deviceWatch.fd) }
        deviceWatch = nil
    }

    private func hotplug() {
        while let (action, node) = deviceWatch?.receive() {
            let now = MonotonicClock.now()
            switch action {
            case .add, .change:
                if open[node.devnode] == nil { consider(node, at: now) }
            case .remove:
                pending.removeValue(forKey: node.devnode)
                remove(node.devnode, at: now, failure: nil)
            }
        }
    }

    private func consider(_ node: UdevInputNode, at now: Instant) {
        guard !clones.contains(node.devnode) else { return }
        let device: EvdevDevice
        do {
            device = try EvdevDevice(path: node.devnode)
        } catch {
            switch error.errno {
            case .permissionDenied, .notPermitted: waitForAccess(node, error, at: now)
            case .noSuchFileOrDirectory, .noSuchDevice, .noSuchAddressOrDevice: pending.removeValue(forKey: node.devnode)
            default:
                pending.removeValue(forKey: node.devnode)
                warnOnce("open:" + node.devnode, "\(error)")
            }
            return
        }
        pending.removeValue(forKey: node.devnode)
        bind(device, node)
    }

    private func waitForAccess(_ node: UdevInputNode, _ error: OperationError, at now: Instant) {
        var entry = pending[node.devnode] ?? PendingNode(node: node, retryAt: now, delay: 0, since: now)
        entry.delay = entry.delay == 0 ? Self.firstRetry : min(entry.delay * 2, Self.maxRetry)
        entry.retryAt = Instant(microseconds: now.microseconds + entry.delay)
        if pending[node.devnode] == nil {
            log.info("waiting for access to \(node.devnode) (\(node.properties["NAME"] ?? "unnamed")): \(error)")
        } else if now.microseconds - entry.since.microseconds >= Self.accessWarning {
            warnOnce(
                "access:" + node.devnode,
                "still no access to \(node.devnode) (\(node.properties["NAME"] ?? "unnamed")) after 5 s; is udev/70-slate.rules installed? Retrying."
            )
        }
        pending[node.devnode] = entry
    }

    private func bind(_ device: EvdevDevice, _ node: UdevInputNode) {
        var identity = device.identity
        identity.udev = node.properties
        groupCodes[node.group, default: []].formUnion(identity.codes)
        identity.codes = groupCodes[node.group] ?? identity.codes
        guard case .bound(let source, let inputName) = rig.attach(identity), let input = rig.input(of: source) else {
            log.debug("\(node.devnode) (\(identity.name)) matches no input")
            return
        }
        let needsClone = input.needsClone(for: device.identity.codes)
        open[node.devnode] = OpenNode(device: device, source: source, node: node, input: input, needsClone: needsClone)
        do {
            try loop.watch(device.fd) { [unowned self] in self.read(node.devnode) }
        } catch {
            warnOnce("watch:" + node.devnode, "\(error)")
        }
        log.info("\(node.devnode) (\(identity.name)) is input '\(inputName)'")
        applyGrab(node.devnode)
        for (code, on) in leds[inputName] ?? [:] { setLED(code, on: on, of: device) }
    }

    /// Lights or darkens the LED `code` of every device bound to the input
    /// named `input`, and of those bound to it later.
    public func setLED(input: String, code: UInt16, on: Bool) {
        leds[input, default: [:]][code] = on
        for entry in open.values where entry.input.name == input { setLED(code, on: on, of: entry.device) }
    }

    private func setLED(_ code: UInt16, on: Bool, of device: EvdevDevice) {
        guard device.hasLED(code) else {
            warnOnce(
                "led:\(device.path):\(code)",
                "\(device.path) (\(device.identity.name)) has no \(EventCodes.name(type: 0x11, code: code) ?? "LED \(code)"): its tally light is not shown"
            )
            return
        }
        do {
            try device.setLED(code, on: on)
        } catch {
            warnOnce(
                "led-write:\(device.path)", "the tally LED of \(device.path) (\(device.identity.name)) cannot be set: \(error)")
        }
    }

    private func read(_ path: String) {
        guard let entry = open[path] else { return }
        let rig = self.rig
        let result = entry.device.readAvailable { event, resync in
            let used = rig.uses(event, from: entry.source)
            if used || event.type == EventType.syn { rig.handle(.event(event, from: entry.source, resync: resync)) }
            if !used, entry.device.hasClone { entry.device.passThrough(event) }
        }
        if case .failed(let error) = result {
            remove(path, at: MonotonicClock.now(), failure: error.errno == .noSuchDevice ? nil : error)
        } else if waitingToGrab.contains(path) {
            applyGrab(path)
        }
    }

    /// Unbinds a node that went away (`failure` nil) or could not be read.
    private func remove(_ path: String, at time: Instant, failure: OperationError?) {
        guard let entry = open.removeValue(forKey: path) else { return }
        waitingToGrab.remove(path)
        loop.unwatch(entry.device.fd)
        destroyClone(of: entry.device)
        rig.handle(.detached(entry.source, at: time))
        if !open.values.contains(where: { $0.node.group == entry.node.group }) {
            groupCodes.removeValue(forKey: entry.node.group)
        }
        if let failure {
            log.warning("\(path) (\(entry.device.identity.name)) failed and is no longer read: \(failure)")
        } else {
            log.info("\(path) (\(entry.device.identity.name)) went away")
        }
    }

    private func applyGrab(_ path: String) {
        guard let entry = open[path] else { return }
        let mode = entry.input.effectiveGrab
        let wanted = mode == .always || (mode == .whenActive && rig.isCaptureActive)
        let device = entry.device
        guard wanted != device.isGrabbed else { return }
        guard wanted else {
            waitingToGrab.remove(path)
            device.ungrab()
            destroyClone(of: device)
            return
        }
        // A key held now would have its release go to the clone, which never saw it
        // pressed: the desktop would keep it down. The grab waits for every key's release.
        guard !device.hasKeyDown else {
            if waitingToGrab.insert(path).inserted {
                log.info("\(path) (\(device.identity.name)) has a key down: grabbing it once every key is released")
            }
            return
        }
        let waited = waitingToGrab.remove(path) != nil
        if entry.needsClone {
            do {
                try device.createClone()
                if let path = device.clonePath { clones.insert(path) }
            } catch {
                let advice = error.isPermissionDenied ? "; " + Uinput.advice : ""
                warnOnce(
                    "clone:" + path,
                    "not grabbing \(path) (\(device.identity.name)): its other keys could not be passed on: \(error)\(advice)")
                return
            }
        }
        do {
            try device.grab()
            if waited { log.info("\(path) (\(device.identity.name)) has every key released: grabbed it") }
        } catch {
            destroyClone(of: device)
            if error.errno == .resourceBusy {
                warnOnce(
                    "grab:" + path,
                    "\(path) (\(device.identity.name)) is grabbed by another program; listening without the grab")
            } else {
                warnOnce("grab:" + path, "\(error)")
            }
        }
    }

    private func destroyClone(of device: EvdevDevice) {
        if let path = device.clonePath { clones.remove(path) }
        device.destroyClone()
    }

    private func warnOnce(_ key: String, _ message: String) {
        guard warned.insert(key).inserted else { return }
        log.warning("\(message)")
    }
}

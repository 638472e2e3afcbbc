import Logging
import SlateCore
import SlateDevices
import SlateSystem

/// The tally's GPIO lines and busylights, each on a thread of its own: a USB
/// write can wait on its device, and neither the daemon's loop nor another
/// lamp waits with it. Each lamp shows the latest light it was given (one that
/// fell behind skips the lights between). A lamp that is missing or fails is
/// looked for again at its next light (a busylight gets one every few
/// seconds), so one plugged in late lights.
final class TallyLamps {
    private let lamps: [Int: TallyLamp]
    /// Lamps of a profile before a SIGHUP, going dark on their threads; joined at `stop`.
    private let retired: [TallyLamp]

    /// Lamps for the `outputs` that are GPIO lines or busylights; those `old`
    /// has for the same light are taken over as they are, the rest of `old`'s
    /// are told to go dark (without waiting for them).
    init(outputs: [TallyOutput], reusing old: TallyLamps? = nil, logger: Logger) throws(OperationError) {
        var spare = old.map { Array($0.lamps.values) } ?? []
        var lamps: [Int: TallyLamp] = [:]
        for (index, output) in outputs.enumerated() {
            if case .led = output.target { continue }
            if let kept = spare.firstIndex(where: { $0.target == output.target }) {
                lamps[index] = spare.remove(at: kept)
                continue
            }
            do {
                lamps[index] = try TallyLamp(target: output.target, log: logger)
            } catch {
                // Only the lamps made here: those taken over stay `old`'s.
                for lamp in lamps.values where !(old?.lamps.values.contains { $0 === lamp } ?? false) { lamp.stop() }
                throw error
            }
        }
        for lamp in spare { lamp.retire() }
        self.lamps = lamps
        retired = (old?.retired ?? []) + spare
    }

    /// Output `output` is to show `light`.
    func show(_ light: TallyLight, on output: Int) { lamps[output]?.show(light) }

    /// Darkens every lamp, releases them, and waits for their threads to end.
    func stop() {
        for lamp in lamps.values { lamp.retire() }
        for lamp in Array(lamps.values) + retired { lamp.stop() }
    }
}

/// One lamp and the thread that owns it.
private final class TallyLamp: Sendable {
    let target: TallyTarget
    /// What the thread is asked: the latest light, and whether to stop.
    struct Mail: Sendable {
        var light: TallyLight?
        var stopping = false
    }

    private let mailbox: Mailbox<Mail>
    private let thread: WorkerThread

    init(target: TallyTarget, log: Logger) throws(OperationError) {
        self.target = target
        let mailbox = try Mailbox(Mail())
        self.mailbox = mailbox
        thread = try WorkerThread(name: "slate-tally") {
            var lamp = Lamp(target: target, log: log)
            while true {
                mailbox.wait()
                let mail = mailbox.collect { mail in
                    defer { mail.light = nil }
                    return mail
                }
                if mail.stopping {
                    lamp.darken()
                    return
                }
                if let light = mail.light { lamp.show(light) }
            }
        }
    }

    // The thread is told to stop however the lamp goes, or its join would wait for ever.
    deinit { retire() }

    func show(_ light: TallyLight) { mailbox.post { $0.light = light } }

    /// Asks the thread to darken the lamp, release it and end.
    func retire() { mailbox.post { $0.stopping = true } }

    /// Retires the lamp and waits for its thread.
    func stop() {
        retire()
        thread.join()
    }
}

/// A GPIO line or busylight, opened when first shown, owned by its thread.
private struct Lamp {
    private enum Device {
        case gpio(GPIOLine)
        case busylight(HIDRawLight)
    }

    let target: TallyTarget
    let log: Logger
    private var device: Device?
    private var shown: TallyLight?
    /// The last failure said, so a lamp missing for hours is one line.
    private var said: String?

    init(target: TallyTarget, log: Logger) {
        self.target = target
        self.log = log
    }

    mutating func show(_ light: TallyLight) {
        shown = light
        do {
            guard let device = try open() else { return }
            switch device {
            case .gpio(let line): try line.set(light.isLit)
            case .busylight(let busylight): try busylight.show(light)
            }
            said = nil
        } catch {
            device = nil
            say("the tally light \(target) cannot be set: \(error)")
        }
    }

    /// Dark, if it was shown lit, and released.
    mutating func darken() {
        if device != nil, shown?.isLit != false { show(.dark) }
        device = nil
    }

    private mutating func open() throws(OperationError) -> Device? {
        if let device { return device }
        let opened: Device
        switch target {
        case .led: return nil
        case .gpio(let chip, let line, let activeLow):
            opened = .gpio(try GPIOLine(chip: chip, offset: line, activeLow: activeLow))
        case .busylight(let model, let path):
            guard let found = Self.busylight(model: model, path: path) else {
                say("no \(target) is plugged in; it is looked for again every few seconds")
                return nil
            }
            opened = .busylight(try HIDRawLight(path: found.path, model: found.model))
        }
        device = opened
        switch opened {
        case .gpio(let line): log.info("the tally light \(target) is line \(line.offset) of \(line.chip)")
        case .busylight(let light): log.info("the tally light \(target) is a \(light.model.rawValue) at \(light.path)")
        }
        return opened
    }

    /// The hidraw node of a busylight of `model` (any, when nil), or the one at `path`.
    private static func busylight(model: BusylightModel?, path: String?) -> (path: String, model: BusylightModel)? {
        guard let udev = try? Udev() else { return nil }
        for node in udev.hidNodes() where path == nil || path == node.devnode {
            guard let found = BusylightModel.model(vendor: node.vendor, product: node.product), model == nil || model == found
            else { continue }
            return (node.devnode, found)
        }
        return nil
    }

    private mutating func say(_ message: String) {
        guard said != message else { return }
        said = message
        log.warning("\(message)")
    }
}

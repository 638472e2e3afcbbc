import Logging
import SlateCore
import SlateDevices
import SlateSystem

/// The tally's GPIO lines and busylights, on a thread of their own: a USB
/// write can wait on the device, and the daemon's loop never does. A lamp that
/// is missing or fails is looked for again at its next write (a busylight is
/// written every few seconds), so one plugged in late lights.
final class TallyLamps: Sendable {
    private enum Letter: Sendable {
        case show(output: Int, light: TallyLight)
        case stop
    }

    private let mailbox: Mailbox<[Letter]>
    private let thread: WorkerThread

    /// Lamps for `outputs` (those that are GPIO lines or busylights).
    init(outputs: [TallyOutput], logger: Logger) throws(OperationError) {
        let mailbox = try Mailbox<[Letter]>()
        self.mailbox = mailbox
        let targets = outputs.map(\.target)
        thread = try WorkerThread(name: "slate-tally") {
            var lamps = Lamps(targets: targets, log: logger)
            while true {
                mailbox.wait()
                for letter in mailbox.letters() {
                    switch letter {
                    case .show(let output, let light): lamps.show(light, on: output)
                    case .stop:
                        lamps.darkenAll()
                        return
                    }
                }
            }
        }
    }

    /// Output `output` is to show `light`.
    func show(_ light: TallyLight, on output: Int) { mailbox.post(.show(output: output, light: light)) }

    /// Darkens every lamp, releases them, and waits for the thread to end.
    func stop() {
        mailbox.post(.stop)
        thread.join()
    }
}

/// The open lamps, owned by the tally's thread.
private struct Lamps {
    private enum Lamp {
        case gpio(GPIOLine)
        case busylight(HIDRawLight)
    }

    let targets: [TallyTarget]
    let log: Logger
    private var open: [Int: Lamp] = [:]
    private var shown: [Int: TallyLight] = [:]
    /// The last failure said per output, so a lamp missing for hours is one line.
    private var said: [Int: String] = [:]

    init(targets: [TallyTarget], log: Logger) {
        self.targets = targets
        self.log = log
    }

    mutating func show(_ light: TallyLight, on output: Int) {
        shown[output] = light
        do {
            guard let lamp = try lamp(output) else { return }
            switch lamp {
            case .gpio(let line): try line.set(light.isLit)
            case .busylight(let busylight): try busylight.show(light)
            }
            said[output] = nil
        } catch {
            open[output] = nil
            say(output, "the tally light \(targets[output]) cannot be set: \(error)")
        }
    }

    mutating func darkenAll() {
        for output in open.keys.sorted() where shown[output]?.isLit != false { show(.dark, on: output) }
        open.removeAll()
    }

    private mutating func lamp(_ output: Int) throws(OperationError) -> Lamp? {
        if let lamp = open[output] { return lamp }
        let lamp: Lamp
        switch targets[output] {
        case .led: return nil
        case .gpio(let chip, let line, let activeLow):
            lamp = .gpio(try GPIOLine(chip: chip, offset: line, activeLow: activeLow))
        case .busylight(let model, let device):
            guard let found = Self.busylight(model: model, device: device, taken: takenPaths) else {
                say(output, "no \(targets[output]) is plugged in; it is looked for again every few seconds")
                return nil
            }
            lamp = .busylight(try HIDRawLight(path: found.path, model: found.model))
        }
        open[output] = lamp
        log.info("the tally light \(targets[output]) is \(Self.name(of: lamp))")
        return lamp
    }

    private var takenPaths: Set<String> {
        Set(open.values.compactMap { if case .busylight(let light) = $0 { light.path } else { nil } })
    }

    private static func name(of lamp: Lamp) -> String {
        switch lamp {
        case .gpio(let line): "line \(line.offset) of \(line.chip)"
        case .busylight(let light): "a \(light.model.rawValue) at \(light.path)"
        }
    }

    /// The hidraw node of a busylight of `model` (any, when nil) not taken by another output, or `device`.
    private static func busylight(model: BusylightModel?, device: String?, taken: Set<String>) -> (
        path: String, model: BusylightModel
    )? {
        guard let udev = try? Udev() else { return nil }
        for node in udev.hidNodes() where !taken.contains(node.devnode) && (device == nil || device == node.devnode) {
            guard let found = BusylightModel.model(vendor: node.vendor, product: node.product), model == nil || model == found
            else { continue }
            return (node.devnode, found)
        }
        return nil
    }

    private mutating func say(_ output: Int, _ message: String) {
        guard said[output] != message else { return }
        said[output] = message
        log.warning("\(message)")
    }
}

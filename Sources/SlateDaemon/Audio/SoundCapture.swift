import Logging
import SlateCore
import SlateSystem

/// The sound device's one owner: a thread that reads it block after block and
/// hands each block on (to the take pipeline). A device that fails (a sound
/// card unplugged) is reported lost and opened again every half second until
/// it is back.
final class SoundCapture: Sendable {
    /// What the capture hands on, in order.
    enum Delivery: Sendable {
        case block(AudioBlock)
        /// The device failed at `at`; nothing comes until it is `back`.
        case lost(String, at: Instant)
        case back(String, at: Instant)
    }

    private let stopping: Mailbox<Bool>
    private let thread: WorkerThread

    /// Starts reading `source`, which `device` opened, on a thread of its own,
    /// which takes part in the device's clock's time.
    init(
        source: sending any SoundSource, device: SoundDevice, logger: Logger,
        deliver: @escaping @Sendable (Delivery) -> Void
    ) throws(OperationError) {
        let stopping = try Mailbox(false)
        self.stopping = stopping
        let reader = Reader(source: source, device: device, logger: logger, stopping: stopping, deliver: deliver)
        thread = try WorkerThread(name: "slate-audio", clock: device.clock) { reader.run() }
    }

    deinit { shutdown() }

    /// Stops reading, closes the device and joins the thread.
    func shutdown() {
        stopping.post { $0 = true }
        thread.join()
    }
}

/// The capture thread's state: the device while it is open (released as soon
/// as it fails, so a card being unplugged is let go), and how to open it again.
private final class Reader {
    private var source: (any SoundSource)?
    private let device: SoundDevice
    private let logger: Logger
    private let stopping: Mailbox<Bool>
    private let deliver: @Sendable (SoundCapture.Delivery) -> Void

    init(
        source: any SoundSource, device: SoundDevice, logger: Logger, stopping: Mailbox<Bool>,
        deliver: @escaping @Sendable (SoundCapture.Delivery) -> Void
    ) {
        self.source = source
        self.device = device
        self.logger = logger
        self.stopping = stopping
        self.deliver = deliver
    }

    func run() {
        var name = source?.name ?? device.device.description
        var attempts = 0
        while !stopping.read({ $0 }) {
            if let open = source {
                do {
                    deliver(.block(try open.read()))
                } catch {
                    source = nil
                    deliver(.lost("\(error)", at: device.clock.now()))
                }
                continue
            }
            device.clock.wait(for: stopping, until: device.clock.now() + .milliseconds(500))
            stopping.collect { _ in }
            do {
                source = try device.open()
                if let source {
                    name = source.name
                    attempts = 0
                    logger.info("sound device \(name) is back")
                    deliver(.back(name, at: device.clock.now()))
                }
            } catch {
                attempts += 1
                if attempts == 1 {
                    logger.warning("waiting for sound device \(name) to come back: \(error)")
                } else {
                    logger.debug("sound device \(name) is still missing: \(error)")
                }
            }
        }
    }
}

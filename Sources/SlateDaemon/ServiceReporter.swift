import Logging
import SlateCore
import SlateSystem

/// Tells systemd how `slate run` stands, when it runs as a `Type=notify` unit:
/// the notes `ServiceNotes` decides, sent to the service manager. A note that
/// cannot be sent is logged once; the rig goes on.
final class ServiceReporter {
    private let manager: ServiceManager
    private var notes: ServiceNotes
    private let log: Logger
    private var failed = false

    init(manager: ServiceManager, log: Logger) {
        self.manager = manager
        notes = ServiceNotes(watchdog: manager.watchdog)
        self.log = log
    }

    /// When the watchdog's next ping is due.
    var nextDeadline: Instant? { notes.nextDeadline }

    /// The rig's camera and what it waits for among its inputs, at `now`.
    func rig(camera: ServiceNotes.Camera, inputs: String?, at now: Instant) {
        send(notes.rig(camera: camera, inputs: inputs, at: now))
    }

    /// The rig stops (its take is being closed).
    func stop() { send(notes.stop()) }

    private func send(_ note: String?) {
        guard let note, case .failure(let error) = manager.notify(note), !failed else { return }
        failed = true
        log.error("cannot tell the service manager how the rig stands: \(error)")
    }
}

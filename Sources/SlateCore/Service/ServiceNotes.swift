/// What a rig tells systemd as it starts, waits and stops (sd_notify): the
/// daemon hands it what it sees and sends the note it returns, if any.
///
/// `READY=1` once the camera streams and the inputs are bound, or once the rig
/// waits for either; then a `STATUS=` line each time what it waits for
/// changes (`waiting for camera: …`); `STOPPING=1` once, when it stops; and
/// `WATCHDOG=1` at half the watchdog's interval while it runs.
public struct ServiceNotes: Sendable {
    /// The camera as the daemon sees it.
    public enum Camera: Equatable, Sendable {
        /// Asked for, not answered yet: the rig is not ready.
        case opening
        /// Streaming, from the camera named.
        case streaming(String)
        /// Missing: why, as the daemon logs it.
        case waiting(String)
    }

    private var ready = false
    private var status: String?
    private var stopping = false
    private var pingDue: Instant?
    private let watchdog: Duration?

    /// A rig under a manager whose watchdog wants a ping within `watchdog` (nil: none).
    public init(watchdog: Duration?) {
        self.watchdog = watchdog
    }

    /// The rig's camera and inputs at `now` (`inputs`: what it waits for among
    /// its input devices, nil when they are bound); the note to send, if any.
    public mutating func rig(camera: Camera, inputs: String?, at now: Instant) -> String? {
        guard !stopping else { return nil }
        var fields: [String] = []
        if let watchdog, pingDue.map({ now >= $0 }) ?? true {
            pingDue = now + .microseconds(watchdog.microseconds / 2)
            fields.append("WATCHDOG=1")
        }
        if let text = Self.status(camera: camera, inputs: inputs) {
            if !ready {
                ready = true
                fields.insert("READY=1", at: 0)
            }
            if text != status {
                status = text
                fields.append("STATUS=" + text)
            }
        }
        return fields.isEmpty ? nil : fields.joined(separator: "\n")
    }

    /// The rig stops: the note to send, once.
    public mutating func stop() -> String? {
        guard !stopping else { return nil }
        stopping = true
        return "STOPPING=1\nSTATUS=stopping: closing the take in progress"
    }

    /// When the next watchdog ping is due; nil without a watchdog or once stopping.
    public var nextDeadline: Instant? { stopping ? nil : pingDue }

    private static func status(camera: Camera, inputs: String?) -> String? {
        switch (camera, inputs) {
        case (.opening, _): nil
        case (.streaming(let name), nil): "ready: \(name) streams, the inputs are bound"
        case (.streaming(let name), let inputs?): "\(name) streams; waiting for \(inputs)"
        case (.waiting(let why), nil): "waiting for camera: \(why)"
        case (.waiting(let why), let inputs?): "waiting for camera: \(why); and for \(inputs)"
        }
    }
}

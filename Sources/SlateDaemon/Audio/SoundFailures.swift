import SlateCore
import SlateDevices
import SlateSystem
import Synchronization

/// The feedback sounds that could not play, handed from the sound player's
/// thread to the daemon's loop, which reports each as a `sound` line that
/// failed (on the page's log too). At most `limit` wait; more are dropped,
/// as the log has said why already.
final class SoundFailures: Sendable {
    static let limit = 32

    private let waiting = Mutex<[(sound: String, file: String?, reason: String)]>([])
    private let wake: Wakeup

    init(wake: Wakeup) { self.wake = wake }

    /// The player's `onFailure`.
    func add(sound: String, file: String?, reason: String) {
        let added = waiting.withLock { waiting in
            guard waiting.count < Self.limit else { return false }
            waiting.append((sound, file, reason))
            return true
        }
        if added { wake.signal() }
    }

    /// The failures since the last call, as reports at `time`.
    func take(at time: Instant) -> [RigEffect] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting.map {
                .report(.sound(SoundReport(time: time, sound: $0.sound, file: $0.file, input: nil, failure: $0.reason)))
            }
        }
    }
}

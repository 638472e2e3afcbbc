import SlateCore
import Synchronization

/// Figures the recorder's threads keep current for the rig's page: how the
/// camera's frames are recorded, the take in progress's summary so far, and
/// the level of the sound being captured.
final class RecorderGauges: Sendable {
    /// How the camera's frames are recorded.
    struct Recording: Equatable, Sendable {
        /// e.g. `1920x1080 raw`, `1280x720 mjpeg`.
        var mode: String
        /// e.g. `libx264`, `mjpeg pass-through`.
        var encoder: String
    }

    /// The gauges at one moment.
    struct Reading: Sendable {
        var recording: Recording?
        var take = TakeSummary()
        /// The sound's level over its last 100 ms; nil while none is captured.
        var level: AudioLevel?
    }

    private struct State {
        var recording: Recording?
        var take = TakeSummary()
        var meter: LevelMeter?
    }

    private let state = Mutex(State())

    /// The camera streams `format` through `encoder` from now; nil: it stopped.
    func streams(_ format: SourceFormat?, encoder: String) {
        let recording = format.map { Recording(mode: "\($0.width)x\($0.height) \($0.codec ?? "raw")", encoder: encoder) }
        state.withLock { $0.recording = recording }
    }

    /// The take in progress, as recorded so far.
    func take(_ summary: TakeSummary) {
        state.withLock { $0.take = summary }
    }

    /// A block of the sound was captured.
    func add(_ block: AudioBlock) {
        state.withLock { state in
            if state.meter?.format != block.format { state.meter = LevelMeter(format: block.format) }
            state.meter?.add(block)
        }
    }

    /// The sound device is gone: the meter shows nothing until it is back.
    func soundLost() { state.withLock { $0.meter = nil } }

    /// Whether sound is being captured (the meter has a level).
    var isMetering: Bool { state.withLock { $0.meter != nil } }

    var reading: Reading {
        state.withLock { state in
            Reading(recording: state.recording, take: state.take, level: state.meter?.recent)
        }
    }
}

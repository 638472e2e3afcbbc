import Foundation
import Logging
import SlateCore
import SlateDaemon
import SlateMedia
import SlateSystem
import SystemPackage

/// `slate run --json --replay` in the test's own process, on a `VirtualClock`:
/// the recording's events, the test pattern's frames and the take pipeline's
/// waits all keep the clock's time, which jumps to whatever is due next once
/// every thread of the daemon waits. A minute of replay takes what encoding
/// its frames takes.
struct DaemonOnVirtualTime {
    /// What the run printed and how it ended.
    struct Outcome {
        /// Whether `run` succeeded.
        var succeeded: Bool
        /// The report lines, as JSON objects.
        var lines: [[String: Any]]
        /// How far the virtual clock went, and how long that took in real time.
        var virtual: Duration
        var real: Duration

        func takes(_ event: String) -> [[String: Any]] {
            lines.filter { $0["type"] as? String == "take" && $0["event"] as? String == event }
        }
    }

    /// Replays `recording` through the rig of `profile` (files), recording
    /// takes into `folder`/takes and exporting into `folder`; `audio` is
    /// `slate run --audio`.
    static func replay(
        profile: String, recording: String, folder: String, audio: String? = nil, timing: Bool = false
    ) throws -> Outcome {
        let loaded = try ProfileSource.load(profile).get()
        let parsed = try InputRecording.parse(utf8: try FileReading.bytes(atPath: recording), file: recording)
        let work = try TakeFolder(path: folder + "/takes", create: true, access: loaded.camera.takesAccess)
        let settings = LiveRecorder.Settings(
            camera: loaded.camera, cameraOverride: nil, audio: AudioSpec.device(audio, over: loaded.audio), work: work,
            output: folder,
            presets: folder + "/presets")
        let output = folder + "/reports.jsonl"
        let fd = try FileDescriptor.open(output, .writeOnly, options: [.create, .truncate], permissions: .ownerReadWrite)
        let clock = VirtualClock()
        let start = (clock.now(), MonotonicClock.now())
        var log = Logger(label: "slate.run.test")
        log.logLevel = .warning
        let succeeded: Bool
        do {
            defer { try? fd.close() }
            let daemon = try RunDaemon(
                profilePath: profile, profile: loaded, recording: (recording, parsed), settings: settings, json: true,
                timing: timing, log: log, clock: clock, output: fd)
            succeeded = daemon.run(handlingSignals: false)
        }
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let lines = text.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        return Outcome(
            succeeded: succeeded, lines: lines, virtual: clock.now() - start.0, real: MonotonicClock.now() - start.1)
    }
}

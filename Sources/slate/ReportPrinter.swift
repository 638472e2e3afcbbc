import Logging
import SlateCore
import SlateLinux

/// Prints reports as replay, monitor and run show them, and carries out the
/// effects a live rig has: `exec` actions run their program, sounds play.
/// Reports that run programs are on CLOCK_MONOTONIC, as live events are.
struct ReportPrinter {
    let output = OutputStream()
    let format: ReportFormat
    let json: Bool
    let runsPrograms: Bool
    /// Adds when each report was handled (JSON `dispatched`), to measure latency.
    var timing = false
    /// Plays `sound` reports; nil where nothing is played (replay).
    var sounds: SoundPlayer?
    let log: Logger
    /// Prints presses that did nothing (`ignored` lines); `--quiet-ignored` turns this off.
    var showsIgnored = true

    func print(_ reports: [Report]) {
        let dispatched = timing ? MonotonicClock.now() : nil
        for report in reports {
            if !showsIgnored, case .ignored = report { continue }
            output.writeLine(json ? format.json(report, dispatched: dispatched) : format.text(report))
            if case .sound(let sound) = report { sounds?.play(sound.sound) }
            guard runsPrograms, case .action(let action) = report, case .exec(let argv) = action.action else { continue }
            let times = ExecEnvironment.times(
                of: action.time, since: format.origin, wallClock: MonotonicClock.wallClock(of: action.time))
            do {
                try ProcessLauncher.launch(argv, environment: action.environment + times, replacing: ExecEnvironment.names)
            } catch {
                log.warning("exec: \(error)")
            }
        }
    }
}

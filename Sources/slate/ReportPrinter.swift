import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// Prints reports as replay, monitor and run show them, one line each.
struct ReportPrinter {
    let output = OutputStream()
    let format: ReportFormat
    let json: Bool
    /// Adds when each report was handled (JSON `dispatched`), to measure latency.
    var timing = false
    /// Prints presses that did nothing (`ignored` lines); `--quiet-ignored` turns this off.
    var showsIgnored = true

    func print(_ report: Report, dispatched: Instant? = nil) {
        if !showsIgnored, case .ignored = report { return }
        output.writeLine(json ? format.json(report, dispatched: dispatched) : format.text(report))
    }
}

import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// Prints reports as replay, monitor and run show them, one line each; text
/// lines carry no control characters (`TerminalText`), whatever they quote.
public struct ReportPrinter {
    public let output: OutputStream
    public let format: ReportFormat
    public let json: Bool
    /// Adds when each report was handled (JSON `dispatched`), to measure latency.
    public var timing = false
    /// Prints presses that did nothing (`ignored` lines); `--quiet-ignored` turns this off.
    public var showsIgnored = true

    public init(
        format: ReportFormat, json: Bool, timing: Bool = false, showsIgnored: Bool = true, output: OutputStream = OutputStream()
    ) {
        self.output = output
        self.format = format
        self.json = json
        self.timing = timing
        self.showsIgnored = showsIgnored
    }

    public func print(_ report: Report, dispatched: Instant? = nil) {
        if !showsIgnored, case .ignored = report { return }
        output.writeLine(json ? format.json(report, dispatched: dispatched) : TerminalText.safe(format.text(report)))
    }
}

import SlateCore
import Testing

/// How far an export has got, and when `slate run` reports it.
@Suite struct ExportProgressTests {
    /// The progress an export of `total` frames taking `seconds` tells every
    /// 30 frames and at its end, as it reaches it, and the `done` of those reported.
    func reported(total: Int, seconds: Double) -> [Double] {
        let start = Instant(microseconds: 5_000_000)
        var pace = ExportProgressPace(start: start)
        let told = Array(stride(from: 30, to: total, by: 30)) + [total]
        return told.compactMap { frames in
            let progress = ExportProgress(takes: 2, frames: frames, total: total)
            let time = start + .microseconds(Int64(seconds * 1e6 * Double(frames) / Double(total)))
            return pace.report(progress, at: time) ? progress.done : nil
        }
    }

    @Test func doneIsRoundedDownToTheHundredthAndNeverPastTheEnd() {
        #expect(ExportProgress(takes: 1, frames: 1799, total: 1800).done == 0.99)
        #expect(ExportProgress(takes: 1, frames: 600, total: 1800).done == 0.33)
        #expect(ExportProgress(takes: 1, frames: 1900, total: 1800).fraction == 1)
        #expect(ExportProgress(takes: 1, frames: 0, total: 0).fraction == 1)
    }

    @Test func aShortExportReportsNothingAndTheEndIsNeverReported() {
        #expect(reported(total: 900, seconds: 0.9).isEmpty)
        #expect(reported(total: 1800, seconds: 1.5) == [0.66])
    }

    @Test func aLongExportIsReportedEveryTwentiethAtMostOnceASecond() {
        let lines = reported(total: 1800, seconds: 60)
        #expect(lines.count == 19)
        #expect(lines.first == 0.05 && lines.last == 0.95)
        #expect([0.25, 0.5, 0.75].allSatisfy(lines.contains))
        #expect(reported(total: 36_000, seconds: 1200).count == 19)
    }

    @Test func anExportOfAFewSecondsIsReportedInEachQuarter() {
        let lines = reported(total: 1800, seconds: 4)
        #expect(lines.count == 3)
        for quarter in 1...3 {
            #expect(lines.contains { Int($0 * 4) == quarter }, "no line in quarter \(quarter) of \(lines)")
        }
        #expect(reported(total: 1800, seconds: 10).count == 9)
    }
}

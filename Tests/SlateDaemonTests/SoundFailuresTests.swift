import SlateCore
import SlateSystem
import Testing

@testable import SlateDaemon

/// The failed sounds the player hands the daemon's loop: bounded, reported once each.
@Suite struct SoundFailuresTests {
    @Test func atMostTheLimitWaitAndEachIsReportedOnce() throws {
        let failures = SoundFailures(wake: try Wakeup())
        for index in 0..<(SoundFailures.limit + 8) {
            failures.add(sound: "cue\(index)", file: "/rig/cue\(index).wav", reason: "cannot open")
        }
        let time = Instant(microseconds: 5_000)
        let reports = failures.take(at: time)
        #expect(reports.count == SoundFailures.limit)
        guard case .report(.sound(let first)) = reports.first, case .report(.sound(let last)) = reports.last else {
            Issue.record("not sound reports: \(reports)")
            return
        }
        #expect(first.sound == "cue0" && first.failure == "cannot open" && first.time == time)
        #expect(last.sound == "cue\(SoundFailures.limit - 1)")
        #expect(failures.take(at: time).isEmpty)
    }
}

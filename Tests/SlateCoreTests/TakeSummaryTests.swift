import Foundation
import Testing

@testable import SlateCore

/// One take's summary, the same three fields wherever it is written.
@Suite struct TakeSummaryTests {
    static let summary = TakeSummary(duration: .microseconds(2_533_367), frames: 76, dropped: 1)
    static let take = TakeManifest.Take(
        id: "0001", file: "take-1.mp4", thumbnail: nil, started: 1_700_000_000_000_000, summary: summary,
        codec: "h264", recording: false)

    func fields(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func theViewsOfATakeGiveItsSummaryAsTheSameFieldsToTheMillisecond() throws {
        let views = [
            JSONLine.encode(RigStatus.TakeEntry(number: 1, file: "take-1.mp4", summary: Self.summary, thumbnail: nil)),
            JSONLine.encode(RigStatus.TakeInProgress(number: 1, started: 0.5, summary: Self.summary)),
            JSONLine.encode(TakeListLine(number: 1, take: Self.take, path: "/w/take-1.mp4", thumbnail: nil)),
            JSONLine.encode(RecordLine(path: "/w/take-1.mp4", thumbnail: nil, encoder: "libx264", summary: Self.summary)),
            ReportFormat(origin: Instant(microseconds: 0)).json(
                .take(
                    TakeReport(
                        time: Instant(microseconds: 0), event: .stopped, take: 1, path: "/w/take-1.mp4",
                        summary: Self.summary))),
        ]
        for view in views {
            let object = try fields(view)
            #expect(object["duration"] as? Double == 2.533, "\(view)")
            #expect(object["frames"] as? Int == 76, "\(view)")
            #expect(object["dropped"] as? Int == 1, "\(view)")
        }
        let decoded = TakeSummary(duration: .milliseconds(2_533), frames: 76, dropped: 1)
        #expect(try JSONDecoder().decode(RigStatus.TakeEntry.self, from: Data(views[0].utf8)).summary == decoded)
        #expect(try JSONDecoder().decode(RigStatus.TakeInProgress.self, from: Data(views[1].utf8)).summary == decoded)
        #expect(try JSONDecoder().decode(TakeListLine.self, from: Data(views[2].utf8)).summary == decoded)
        #expect(try JSONDecoder().decode(RecordLine.self, from: Data(views[3].utf8)).summary == decoded)
    }

    @Test func theManifestKeepsTheDurationToTheMicrosecond() throws {
        let manifest = TakeManifest(takes: [Self.take])
        #expect(manifest.json.contains(#""duration":2.533367"#))
        #expect(try TakeManifest.parse(manifest.json, file: "takes.json").get().takes[0].summary == Self.summary)
    }

    @Test func anExportCountsNoDroppedFramesAndAnExportUnderWayGivesOnlyTheFramesWritten() throws {
        let format = ReportFormat(origin: Instant(microseconds: 0))
        let exported = try fields(
            format.json(
                .take(
                    TakeReport(
                        time: Instant(microseconds: 0), event: .exported, take: 2, path: "/out/export.mp4",
                        summary: TakeSummary(duration: .seconds(4), frames: 120)))))
        #expect(exported["duration"] as? Double == 4 && exported["frames"] as? Int == 120 && exported["dropped"] == nil)
        let exporting = try fields(
            format.json(
                .take(
                    TakeReport(
                        time: Instant(microseconds: 0), event: .exporting, take: 2,
                        progress: ExportProgress(takes: 2, frames: 30, total: 120)))))
        #expect(exporting["frames"] as? Int == 30 && exporting["duration"] == nil && exporting["done"] as? Double == 0.25)
    }

    @Test func aSummaryOutOfRangeIsRefusedNamingItsField() {
        let line = #"{"number":1,"file":"take-1.mp4","duration":-1,"frames":3,"dropped":0}"#
        guard case .failure(let refusal) = JSONFileError.decode(RigStatus.TakeEntry.self, from: line, file: "status.json")
        else {
            Issue.record("a negative duration was taken")
            return
        }
        #expect(refusal.description == "status.json: error: duration: duration must be from 0 to 1e9 seconds, not -1.0")
        #expect(Self.summary.text == "2.533 s, 76 frames, 1 dropped")
    }
}

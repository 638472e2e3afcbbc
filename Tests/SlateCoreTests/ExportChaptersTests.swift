import SlateCore
import Testing

/// An export's chapters: each take's, titled, and its markers', in their places.
@Suite struct ExportChaptersTests {
    func take(_ timecode: String?, markers: [TakeMarker] = []) -> TakeManifest.Take {
        var take = TakeManifest.Take(id: "1", file: "t.mp4", thumbnail: nil, started: 0, codec: "h264", recording: false)
        take.timecode = timecode
        take.markers = markers
        return take
    }

    @Test func eachTakeAndMarkerInItsPlace() {
        let takes = [
            take("10:07:03:12", markers: [TakeMarker(at: .milliseconds(1500), name: "Applause", timecode: "10:07:04:27")]),
            take(
                nil,
                markers: [
                    TakeMarker(at: .seconds(9), name: nil, timecode: nil), TakeMarker(at: .seconds(1), name: nil, timecode: nil),
                ]),
        ]
        let chapters = ExportChapters.plan(takes, starts: [0, 4_000_000], rig: "cam-a")
        #expect(
            chapters == [
                .init(start: 0, title: "Take 1 · 10:07:03:12 · cam-a"),
                .init(start: 1_500_000, title: "Applause · 10:07:04:27"),
                .init(start: 4_000_000, title: "Take 2 · cam-a"),
                .init(start: 5_000_000, title: "Marker 2"),
                .init(start: 13_000_000, title: "Marker 1"),
            ])
        // A marker past where the next take starts (the take read short) is left out.
        let short = ExportChapters.plan(takes, starts: [0, 1_000_000], rig: nil)
        #expect(short.map(\.title) == ["Take 1 · 10:07:03:12", "Take 2", "Marker 2", "Marker 1"])
    }

    @Test func markerNames() {
        #expect(TakeMarker.isName("Applause") && TakeMarker.isName(String(repeating: "é", count: 64)))
        #expect(!TakeMarker.isName("") && !TakeMarker.isName(String(repeating: "a", count: 65)))
        // C0 and C1 controls, bidi overrides, zero-width characters; 64 characters of over 200 bytes.
        for name in ["a\u{1b}[2J", "a\u{9b}2J", "a\u{202e}b", "a\u{200b}b", "a\nb", String(repeating: "😀", count: 64)] {
            #expect(!TakeMarker.isName(name), "\(name.unicodeScalars.map(\.value))")
        }
        #expect(TakeMarker.isName(String(repeating: "😀", count: 50)))
    }

    @Test func aTakeListsMarkersAreCheckedAsTheyAreRead() throws {
        func manifest(_ markers: String) -> String {
            #"{"version":1,"takes":[{"id":"0001","file":"t.mp4","thumbnail":null,"started":1,"duration":1,"frames":30,"dropped":0,"codec":"h264","recording":false,"markers":"#
                + markers + "}]}"
        }
        let good = try JSONLine.decode(TakeManifest.self, from: manifest(#"[{"at":1.5,"name":"Applause"}]"#).utf8)
        #expect(good.takes[0].markers == [TakeMarker(at: .milliseconds(1500), name: "Applause", timecode: nil)])
        for bad in [
            #"[{"at":1e300}]"#, #"[{"at":-1}]"#, #"[{"at":1,"name":"\u001b[2J"}]"#, #"[{"at":1,"timecode":"1234567890123"}]"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try JSONLine.decode(TakeManifest.self, from: manifest(bad).utf8) }
        }
    }
}

/// A marker's budgets from outside, at their edges: its name from a profile, HTTP or MQTT, and its count in a take.
@Suite struct TakeMarkerBudgetTests {
    @Test func aNameOverItsBudgetIsRefusedWithWhy() throws {
        let profile = try ProfileLoader.load(
            "inputs:\n  pedal:\n    match: {name: P}\n    bind: {KEY_A: take.toggle}\n", file: "rig.yaml"
        ).get()
        #expect((try? ActionText.steps("take.mark " + String(repeating: "a", count: 64), in: profile).get()) != nil)
        guard case .failure(let error) = ActionText.steps("take.mark " + String(repeating: "a", count: 65), in: profile)
        else {
            Issue.record("a 65-character marker name was taken")
            return
        }
        #expect("\(error)".contains("take.mark's name is 1 to 64 characters"), "\(error)")
    }

    @Test func aTakeKeepsAThousandMarkersAndRefusesTheNext() {
        var book = RigBook()
        var effects: [RigEffect] = []
        _ = book.answer(.start, at: Instant(microseconds: 0), into: &effects)
        for index in 1...TakeMarker.limit {
            guard case .marked = book.answer(.mark(nil), at: Instant(microseconds: Int64(index)), into: &effects) else {
                Issue.record("marker \(index) was refused")
                return
            }
        }
        #expect(
            book.answer(.mark(nil), at: Instant(microseconds: 2000), into: &effects)
                == .ignored("take 1 has 1000 markers, the most a take keeps"))
    }
}

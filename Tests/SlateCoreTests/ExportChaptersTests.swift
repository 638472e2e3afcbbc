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
                    TakeMarker(at: .seconds(1), name: nil, timecode: nil), TakeMarker(at: .seconds(9), name: nil, timecode: nil),
                ]),
        ]
        let chapters = ExportChapters.plan(takes, starts: [0, 4_000_000], rig: "cam-a")
        #expect(
            chapters == [
                .init(start: 0, title: "Take 1 · 10:07:03 · cam-a", timecode: "10:07:03:12"),
                .init(start: 1_500_000, title: "Applause", timecode: "10:07:04:27"),
                .init(start: 4_000_000, title: "Take 2 · cam-a", timecode: nil),
                .init(start: 5_000_000, title: "Marker 1", timecode: nil),
                .init(start: 13_000_000, title: "Marker 2", timecode: nil),
            ])
        // A marker past where the next take starts (the take read short) is left out.
        let short = ExportChapters.plan(takes, starts: [0, 1_000_000], rig: nil)
        #expect(short.map(\.title) == ["Take 1 · 10:07:03", "Take 2", "Marker 1", "Marker 2"])
    }

    @Test func markerNames() {
        #expect(TakeMarker.isName("Applause") && TakeMarker.isName(String(repeating: "é", count: 64)))
        #expect(
            !TakeMarker.isName("") && !TakeMarker.isName(String(repeating: "a", count: 65)) && !TakeMarker.isName("a\u{1b}[2J"))
    }
}

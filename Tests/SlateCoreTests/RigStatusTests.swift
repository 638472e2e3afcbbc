import Testing

@testable import SlateCore

/// The status the rig's page shows: the controls overlay as the deck holds it,
/// and the JSON clients read.
@Suite struct RigStatusTests {
    let profile: Profile

    init() throws {
        profile = try ProfileLoader.load(
            """
            inputs:
              knob:
                match: {name: "Griffin PowerMate"}
                bind: {BTN_0: control, REL_DIAL: control}
            controls:
              list:
                - {type: zoom, prominent: [2]}
                - {type: picker, name: Filter, target: "recorder:filter"}
                - {type: slider, name: Temperature, target: "v4l2:white_balance_temperature"}
            """, file: "rig.yaml"
        ).get()
    }

    @Test func theDeckAsThePageDrawsIt() throws {
        var book = RigBook(camera: profile.camera)
        var deck = ControlDeck(profile: profile, book: book)
        var effects: [RigEffect] = []
        let start = Instant(microseconds: 0)
        var status = deck.status
        #expect(status.shown == "hidden" && status.current == 0 && status.highlight == nil)
        let zoom = status.items[0]
        #expect(zoom.name == "Zoom" && zoom.kind == "slider" && zoom.text == "1.0×" && zoom.enabled)
        #expect(zoom.minimum == 1 && zoom.maximum == 6 && zoom.prominent == [2])
        #expect(zoom.detents?.first == 1 && zoom.detents?.last == 6 && zoom.detents?.count == 51)
        let filter = status.items[1]
        #expect(filter.kind == "picker" && filter.titles == ExportFilter.allCases.map(\.rawValue) && filter.detents == nil)
        let temperature = status.items[2]
        #expect(!temperature.enabled && temperature.reason != nil, "\(temperature)")

        deck.turn(3, at: start, book: &book, into: &effects)
        status = deck.status
        #expect(status.shown == "overlay" && status.items[0].value == 1.3 && status.items[0].text == "1.3×")
        deck.press(at: start + .milliseconds(900), into: &effects)
        deck.release(at: start + .milliseconds(950), into: &effects)
        deck.press(at: start + .milliseconds(1000), into: &effects)
        status = deck.status
        #expect(status.shown == "picker" && status.highlight == 0)
    }

    @Test func itsJSON() {
        let status = RigStatus(
            now: 12.5, recording: true,
            take: .init(number: 3, started: 10, summary: TakeSummary(duration: .milliseconds(2_533), frames: 75, dropped: 2)),
            takes: [], camera: nil,
            filter: "none",
            controls: ControlsEntry(shown: "hidden", current: 0, highlight: nil, items: []),
            disk: .init(freeBytes: 1_000_000_000, bitsPerSecond: 8_000_000), export: nil, sound: nil)
        #expect(status.disk?.secondsLeft == 1000)
        #expect(
            JSONLine.encode(status)
                == #"{"controls":{"current":0,"items":[],"shown":"hidden"},"disk":{"bits_per_second":8000000,"free_bytes":1000000000,"seconds_left":1000},"filter":"none","now":12.5,"previewers":0,"recording":true,"take":{"dropped":2,"duration":2.533,"frames":75,"number":3,"started":10},"takes":[]}"#
        )
    }
}

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

    @Test func aZoomSetFromThePageShowsOnTheZoomCardAndACameraToggleResetsIt() throws {
        var rig = RigMachine(profile: profile, book: RigBook(camera: profile.camera), captureActive: true)
        let steps = try ActionText.steps("zoom.set 2.5", in: profile).get()
        _ = rig.handle(.request(ActionRequest(steps: steps, source: "http", time: Instant(microseconds: 1000))))
        #expect(rig.book.zoom == 2.5)
        let zoom = rig.deck.status.items[0]
        #expect(zoom.value == 2.5 && zoom.text == "2.5×", "\(zoom)")
        // 1 + 7 × 0.1 is 1.7000000000000002 in floating point: the detents are rounded.
        #expect(zoom.detents?[7] == 1.7)
        #expect(JSONLine.encode(rig.deck.status).contains(#"1.7,1.8,1.9,2,"#))
        // The other camera starts at 1×, as the iOS app's toggleCameraPosition resets the zoom.
        let toggle = try ActionText.steps("camera.toggle", in: profile).get()
        _ = rig.handle(.request(ActionRequest(steps: toggle, source: "http", time: Instant(microseconds: 2000))))
        #expect(rig.book.position == .front && rig.book.zoom == 1 && rig.deck.status.items[0].value == 1)
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
                == #"{"controls":{"current":0,"items":[],"shown":"hidden"},"disk":{"bits_per_second":8000000,"free_bytes":1000000000,"seconds_left":1000},"filter":"none","inputs":[],"now":12.5,"previewers":0,"recording":true,"take":{"dropped":2,"duration":2.533,"frames":75,"number":3,"started":10},"takes":[],"tally":"standby","trash":[],"trash_hours":24}"#
        )
    }
}

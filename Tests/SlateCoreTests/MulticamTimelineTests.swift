import SlateCore
import Testing

/// Rigs' takes on one timeline: placed by their first frames, gaps between,
/// written as OpenTimelineIO.
@Suite struct MulticamTimelineTests {
    static let start: Int64 = 1_795_798_343_220_856  // 16:52:23.220856 UTC

    func clip(_ name: String, after seconds: Double, frames: Int, rate: FrameRate = FrameRate(30)) -> MulticamTimeline.Clip {
        MulticamTimeline.Clip(
            name: name, path: "/rigs/cam a/\(name)", started: Self.start + Int64(seconds * 1_000_000), frames: frames, rate: rate,
            markers: [TakeMarker(at: .milliseconds(500), name: nil, timecode: nil)])
    }

    func timeline() throws -> MulticamTimeline {
        try #require(
            MulticamTimeline(
                name: "Shoot",
                tracks: [
                    .init(name: "cam-a", clips: [clip("a2.mp4", after: 3, frames: 45), clip("a1.mp4", after: 0, frames: 60)]),
                    .init(name: "cam-b", clips: [clip("b1.mp4", after: 0.010, frames: 50, rate: FrameRate(25))]),
                ], timeOfDay: { $0 % 86_400_000_000 }))
    }

    @Test func takesArePlacedByTheirFirstFrames() throws {
        let timeline = try timeline()
        #expect(timeline.rate == FrameRate(30) && timeline.start == Self.start)
        let a = timeline.tracks[0].clips, b = timeline.tracks[1].clips
        #expect(a.map(\.name) == ["a1.mp4", "a2.mp4"])
        #expect(timeline.position(of: a[1]) == 90 && timeline.position(of: b[0]) == 0)
        // 50 frames at 25 fps are 60 at the timeline's 30.
        #expect(timeline.length(of: b[0]) == 60)
        #expect(
            timeline.timecode(of: a[0]).description == "16:52:23:06" && timeline.timecode(of: b[0]).description == "16:52:23:05")
        #expect(MulticamTimeline(name: "", tracks: [.init(name: "cam-a", clips: [])], timeOfDay: { $0 }) == nil)
    }

    /// A rig whose clock never had NTP records in 1970: beside a 2026 rig at 29.97 its take is 56 years
    /// early, placed there without overflow, in every format.
    @Test func aRigWhoseClockWasNeverSetIsPlacedDecadesEarly() throws {
        var never = clip("never.mp4", after: 0, frames: 30, rate: .ntsc(30))
        never.started = 1_000_000
        let timeline = try #require(
            MulticamTimeline(
                name: "Shoot",
                tracks: [
                    .init(name: "cam-a", clips: [never]),
                    .init(name: "cam-b", clips: [clip("b.mp4", after: 0, frames: 30, rate: .ntsc(30))]),
                ], timeOfDay: { $0 % 86_400_000_000 }))
        let late = timeline.tracks[1].clips[0]
        #expect(timeline.position(of: late) == FrameRate.ntsc(30).frame(at: Self.start - 1_000_000))
        #expect(timeline.position(of: late) > 50_000_000_000)
        for format in MulticamTimeline.FileFormat.allCases { #expect(!(try timeline.file(format)).isEmpty) }
    }

    @Test func aTakeOfATakeListKeepsItsTimecodeRateAndDroppedFrames() throws {
        var take = TakeManifest.Take(
            id: "1", file: "t.mp4", thumbnail: nil, started: Self.start,
            summary: TakeSummary(duration: .seconds(2), frames: 48, dropped: 2), codec: "h264", recording: false)
        take.timecode = "11:52:23:06"
        let clip = MulticamTimeline.Clip(take, path: "/w/t.mp4")
        // 48 frames and 2 dropped in 2 s: 25 fps, 50 frames of file; the rig's own timecode, not this machine's zone's.
        #expect(clip.rate == FrameRate(25) && clip.frames == 50 && clip.timecode?.description == "11:52:23:06")
        let timeline = try #require(
            MulticamTimeline(name: "", tracks: [.init(name: "cam-a", clips: [clip])], timeOfDay: { $0 % 86_400_000_000 }))
        #expect(timeline.timecode(of: clip).description == "11:52:23:06")
        #expect(Timecode(microsecondsOfDay: timeline.startOfDay, rate: clip.rate).description == "11:52:23:06")
        take.fps = 30
        #expect(
            MulticamTimeline.Clip(take, path: "").rate == FrameRate(30)
                && MulticamTimeline.Clip(take, path: "").timecode?.frame == 1_282_296)
        #expect(Timecode("11:52:23;06", rate: FrameRate(30)) == nil && Timecode("25:00:00:00", rate: FrameRate(30)) == nil)
    }

    @Test func itIsOpenTimelineIO() throws {
        let otio = try timeline().otio()
        #expect(otio["OTIO_SCHEMA"] == "Timeline.1" && otio["global_start_time"]?["value"] == .number(1_822_296))
        let tracks = otio["tracks"]?["children"]
        guard case .array(let list) = tracks, case .array(let first) = list[0]["children"] else {
            Issue.record("no tracks: \(String(describing: tracks))")
            return
        }
        #expect(list[0]["name"] == "cam-a" && list[0]["kind"] == "Video")
        // a1 (60 frames), a gap of 30, a2.
        #expect(first.map { $0["OTIO_SCHEMA"] } == ["Clip.2", "Gap.1", "Clip.2"])
        #expect(first[1]["source_range"]?["duration"]?["value"] == .number(30))
        let reference = first[0]["media_references"]?["DEFAULT_MEDIA"]
        #expect(reference?["target_url"] == "file:///rigs/cam%20a/a1.mp4")
        #expect(first[0]["source_range"]?["start_time"]?["value"] == .number(1_822_296))
        #expect(
            first[0]["markers"]
                == .array([
                    .object([
                        "OTIO_SCHEMA": "Marker.2", "name": "Marker 1", "color": "RED", "comment": "", "metadata": .object([:]),
                        "marked_range": .object([
                            "OTIO_SCHEMA": "TimeRange.1",
                            "start_time": .object([
                                "OTIO_SCHEMA": "RationalTime.1", "value": .number(1_822_311), "rate": .number(30),
                            ]),
                            "duration": .object(["OTIO_SCHEMA": "RationalTime.1", "value": .number(0), "rate": .number(30)]),
                        ]),
                    ])
                ]))
    }
}

import FoundationXML
import SlateCore
import Testing

/// Two rigs' takes at 29.97 written as FCPXML and as an MLT project, read
/// back by an XML parser: each take where its first frame was, a gap where a
/// rig did not record, markers, names XML must escape.
@Suite struct MulticamTimelineFileTests {
    static let start: Int64 = 1_795_798_343_220_856  // 16:52:23.220856 UTC
    static let ntsc = FrameRate(frames: 30000, per: 1001)
    static let marked = #"Take "A" & <B>'s"#

    func clip(
        _ name: String, after seconds: Double, frames: Int, rate: FrameRate = ntsc, size: MulticamTimeline.Size,
        markers: [TakeMarker] = [], sound: Bool = false
    ) -> MulticamTimeline.Clip {
        MulticamTimeline.Clip(
            name: name, path: "/rigs/cam a/\(name)", started: Self.start + Int64(seconds * 1_000_000), frames: frames,
            rate: rate, markers: markers, hasSound: sound, size: size)
    }

    /// cam-a: a1 (60 frames), 1 s later a2; cam-b's b1, 50 frames at 25 fps, 10 ms after a1.
    func timeline(rigB: String = "cam <b> & 'c'") throws -> MulticamTimeline {
        let hd = MulticamTimeline.Size(width: 1920, height: 1080)
        let marker = TakeMarker(at: .milliseconds(500), name: Self.marked, timecode: "16:52:23;21")
        return try #require(
            MulticamTimeline(
                name: "Shoot & <Day 1>",
                tracks: [
                    .init(
                        name: "cam-a",
                        clips: [
                            clip("a1.mp4", after: 0, frames: 60, size: hd, markers: [marker]),
                            clip("a2.mp4", after: 3, frames: 45, size: hd),
                        ]),
                    .init(
                        name: rigB,
                        clips: [
                            clip(
                                "b1.mp4", after: 0.010, frames: 50, rate: FrameRate(25),
                                size: .init(width: 1280, height: 720), sound: true)
                        ]),
                ], timeOfDay: { $0 % 86_400_000_000 }))
    }

    func parse(_ text: String) throws -> XMLDocument { try XMLDocument(xmlString: text) }

    func elements(_ document: XMLDocument, _ path: String) throws -> [XMLElement] {
        try document.nodes(forXPath: path).compactMap { $0 as? XMLElement }
    }

    func attribute(_ element: XMLElement?, _ name: String) -> String? { element?.attribute(forName: name)?.stringValue }

    /// An FCPXML time, `1001/30000s` or `5s`, in seconds.
    func seconds(_ time: String?) -> Double? {
        guard let time, time.hasSuffix("s") else { return nil }
        let parts = time.dropLast().split(separator: "/").compactMap { Double($0) }
        return parts.count == 2 ? parts[0] / parts[1] : parts.first
    }

    @Test func fcpxmlPlacesEachRigsTakesInALaneFromTheSequencesTimecode() throws {
        let text = try timeline().file(.fcpxml)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE fcpxml>\n<fcpxml version=\"1.10\">"))
        let document = try parse(text)
        let formats = try elements(document, "/fcpxml/resources/format")
        #expect(
            formats.map { [attribute($0, "frameDuration"), attribute($0, "width"), attribute($0, "height")] } == [
                ["1001/30000s", "1920", "1080"], ["1/25s", "1280", "720"],
            ])
        let sequence = try #require(elements(document, "//project/sequence").first)
        #expect(attribute(sequence, "format") == attribute(formats.first, "id") && attribute(sequence, "tcFormat") == "DF")
        // 16:52:23.220856 is frame 1 820 476 of the day at 29.97.
        #expect(attribute(sequence, "tcStart") == "1822296476/30000s")
        let tcStart = try #require(seconds(attribute(sequence, "tcStart")))
        let gap = try #require(elements(document, "//sequence/spine/gap").first)
        #expect(attribute(gap, "offset") == attribute(sequence, "tcStart") && attribute(gap, "start") == attribute(gap, "offset"))
        // To the end of a2: 90 + 45 frames.
        #expect(attribute(gap, "duration") == "135135/30000s" && attribute(sequence, "duration") == "135135/30000s")

        let clips = try elements(document, "//spine/gap/asset-clip")
        #expect(clips.map { attribute($0, "name") } == ["a1.mp4", "a2.mp4", "b1.mp4"])
        #expect(clips.map { attribute($0, "lane") } == ["1", "1", "2"])
        // Each at its first frame's time after the timeline's start, to a frame.
        let after = clips.map { (seconds(attribute($0, "offset")) ?? -1) - tcStart }
        #expect(abs(after[0]) < 1e-9 && abs(after[1] - 3) < 1001 / 30000.0 && abs(after[2]) < 1001 / 30000.0)
        // b1 keeps its own rate and size, and its clock timecode at 25 fps.
        #expect(attribute(clips[2], "format") == attribute(formats[1], "id") && attribute(clips[2], "tcFormat") == "NDF")
        #expect(attribute(clips[2], "start") == "1518580/25s" && attribute(clips[2], "duration") == "59059/30000s")

        let assets = try elements(document, "/fcpxml/resources/asset")
        #expect(assets.map { attribute($0, "id") } == clips.map { attribute($0, "ref") })
        #expect(assets.map { attribute($0, "hasAudio") } == ["0", "0", "1"])
        #expect(
            attribute(assets[0], "start") == attribute(clips[0], "start") && attribute(assets[0], "duration") == "60060/30000s")
        // The rig's name is the camera's, which Final Cut Pro's multicam clips go by.
        let cameras = try elements(document, "/fcpxml/resources/asset/metadata/md[@key='com.apple.proapps.studio.cameraName']")
        #expect(cameras.map { attribute($0, "value") } == ["cam-a", "cam-a", "cam <b> & 'c'"])
        let source = try elements(document, "/fcpxml/resources/asset/media-rep").first
        #expect(attribute(source, "src") == "file:///rigs/cam%20a/a1.mp4" && attribute(source, "kind") == "original-media")

        // The marker half a second in: the frame showing then (14 of a1), one frame long.
        let marker = try #require(elements(document, "//asset-clip[@name='a1.mp4']/marker").first)
        let at = (seconds(attribute(marker, "start")) ?? 0) - (seconds(attribute(clips[0], "start")) ?? 0)
        #expect(abs(at - 14 * 1001 / 30000.0) < 1e-9 && attribute(marker, "duration") == "1001/30000s")
        #expect(attribute(marker, "value") == Self.marked && attribute(marker, "note") == "16:52:23;21")
        #expect(attribute(try elements(document, "//event").first, "name") == "Shoot & <Day 1>")
    }

    @Test func mltPlaysEachRigsTakesOnATrackWithBlanksBetween() throws {
        let document = try parse(try timeline().file(.kdenlive))
        let profile = try #require(elements(document, "/mlt/profile").first)
        #expect(
            ["frame_rate_num", "frame_rate_den", "width", "height", "display_aspect_num", "display_aspect_den"].map {
                attribute(profile, $0)
            } == ["30000", "1001", "1920", "1080", "16", "9"])
        let producers = try elements(document, "/mlt/producer")
        let resources = try elements(document, "/mlt/producer/property[@name='resource']").map(\.stringValue)
        #expect(resources == ["/rigs/cam a/a1.mp4", "/rigs/cam a/a2.mp4", "/rigs/cam a/b1.mp4"])
        #expect(
            try elements(document, "/mlt/producer/property[@name='mlt_service']").map(\.stringValue)
                == Array(repeating: "avformat", count: 3))

        // Kdenlive reads its bin from the first playlist; the tracks come after.
        let playlists = try elements(document, "/mlt/playlist")
        #expect(playlists.map { attribute($0, "id") } == ["main_bin", "playlist0", "playlist1"])
        func items(_ playlist: XMLElement) -> [String] {
            (playlist.children ?? []).compactMap { $0 as? XMLElement }.filter { $0.name != "property" }.map {
                $0.name == "blank"
                    ? "blank \(attribute($0, "length") ?? "")"
                    : "\(attribute($0, "producer") ?? "") \(attribute($0, "in") ?? "")-\(attribute($0, "out") ?? "")"
            }
        }
        let ids = producers.map { attribute($0, "id") ?? "" }
        // a1's 60 frames, 30 blank, a2 at 90; b1's 50 frames at 25 fps are 59 at 29.97.
        #expect(items(playlists[1]) == ["\(ids[0]) 0-59", "blank 30", "\(ids[1]) 0-44"])
        #expect(items(playlists[2]) == ["\(ids[2]) 0-58"])
        let names = try elements(document, "/mlt/playlist/property[@name='kdenlive:track_name']").map(\.stringValue)
        #expect(names == ["cam-a", "cam <b> & 'c'"])

        let tractor = try #require(elements(document, "/mlt/*[last()]").first)
        #expect(tractor.name == "tractor" && attribute(tractor, "out") == "134")
        #expect(try elements(document, "/mlt/tractor/track").map { attribute($0, "producer") } == ["playlist0", "playlist1"])

        // The marker as a Kdenlive guide, at the timeline's frame showing then.
        let guides = try #require(
            elements(document, "//playlist[@id='main_bin']/property[@name='kdenlive:docproperties.guides']").first?.stringValue)
        #expect(
            try JSONValue(parsing: guides)
                == .array([.object(["comment": .string(Self.marked), "pos": .integer(14), "type": .integer(0)])]))
    }

    @Test func aProfileWithoutAKnownSizeLeavesItToMLT() throws {
        let clip = MulticamTimeline.Clip(name: "t.mp4", path: "/w/t.mp4", started: Self.start, frames: 30, rate: FrameRate(25))
        let timeline = try #require(
            MulticamTimeline(name: "", tracks: [.init(name: "cam-a", clips: [clip])], timeOfDay: { $0 }))
        let profile = try #require(elements(try parse(try timeline.file(.kdenlive)), "/mlt/profile").first)
        #expect(attribute(profile, "width") == nil && attribute(profile, "frame_rate_num") == "25")
        let format = try #require(elements(try parse(try timeline.file(.fcpxml)), "//format").first)
        #expect(attribute(format, "width") == nil && attribute(format, "frameDuration") == "1/25s")
    }

    @Test func namesAreEscapedAndControlCharactersRefused() throws {
        let text = try timeline().file(.kdenlive)
        #expect(text.contains(#"<property name="kdenlive:track_name">cam &lt;b&gt; &amp; &apos;c&apos;</property>"#))
        #expect(text.contains(#"title="Shoot &amp; &lt;Day 1&gt;""#))
        let bell = try timeline(rigB: "cam\u{7}b")
        #expect(throws: XMLTextError.self) { try bell.file(.fcpxml) }
        #expect(throws: XMLTextError.self) { try bell.file(.kdenlive) }
        // JSON escapes it.
        #expect(try bell.file(.otio).contains(#""cam\u0007b""#))
    }

    @Test func theFormatIsTheOutputFilesExtensions() {
        let formats = ["shoot.fcpxml", "/x/Shoot.MLT", "a.b.kdenlive", "shoot.otio", "shoot", "cut.fcpxml/shoot"].map {
            MulticamTimeline.FileFormat(fileName: $0)
        }
        #expect(formats == [.fcpxml, .kdenlive, .kdenlive, .otio, .otio, .otio])
    }
}

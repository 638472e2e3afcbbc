/// The timeline as FCPXML 1.10, which Final Cut Pro and DaVinci Resolve
/// import: a `format` for each frame rate and picture size, an `asset` for
/// each take (its file, from its timecode for its length, its rig's name as
/// its camera's), and a project whose sequence starts at the timeline's
/// timecode and holds one gap as long as the timeline, each rig's takes
/// connected to it in a lane of their own (`lane="1"` for the first rig), with
/// their markers. Times are rational seconds: whole frames of the timeline's
/// rate, or of a take's own within it.
extension MulticamTimeline {
    public func fcpxml() -> XMLTree {
        let placed = tracks.enumerated().flatMap { lane, track in places(on: track).map { (lane + 1, $0.clip, $0.at) } }
        var resources: [XMLTree] = []
        var formats: [Format: String] = [:]
        for format in [Format(rate: rate, size: size)] + placed.map({ Format($0.1) }) where formats[format] == nil {
            formats[format] = "r\(formats.count + 1)"
            resources.append(
                XMLTree(
                    "format",
                    [
                        "id": formats[format], "frameDuration": Self.rational(1, format.rate),
                        "width": format.size.map { "\($0.width)" }, "height": format.size.map { "\($0.height)" },
                    ]))
        }
        var assets: [Clip: String] = [:]
        for (lane, clip, _) in placed where assets[clip] == nil {
            assets[clip] = "r\(formats.count + assets.count + 1)"
            resources.append(asset(clip, id: assets[clip]!, format: formats[Format(clip)]!, rig: tracks[lane - 1].name))
        }
        let start = Timecode(microsecondsOfDay: startOfDay, rate: rate).frame
        let lanes = placed.map { lane, clip, at in
            assetClip(clip, asset: assets[clip]!, format: formats[Format(clip)]!, lane: lane, offset: start + at)
        }
        let gap = XMLTree(
            "gap",
            [
                "name": "Gap", "offset": Self.rational(start, rate), "start": Self.rational(start, rate),
                "duration": Self.rational(length, rate),
            ], lanes)
        let sequence = XMLTree(
            "sequence",
            [
                "format": "r1", "duration": Self.rational(length, rate), "tcStart": Self.rational(start, rate),
                "tcFormat": rate.dropsFrames ? "DF" : "NDF",
            ], [XMLTree("spine", [:], [gap])])
        let project = XMLTree("project", ["name": name], [sequence])
        return XMLTree(
            "fcpxml", ["version": "1.10"],
            [
                XMLTree("resources", [:], resources),
                XMLTree("library", [:], [XMLTree("event", ["name": name], [project])]),
            ])
    }

    /// A take's file: from its first frame's timecode, its frames at its own
    /// rate; its rig's name is its camera's name and angle, which Final Cut
    /// Pro's multicam clips go by.
    private func asset(_ clip: Clip, id: String, format: String, rig: String) -> XMLTree {
        XMLTree(
            "asset",
            [
                "id": id, "name": clip.name, "start": Self.rational(timecode(of: clip).frame, clip.rate),
                "duration": Self.rational(Int64(clip.frames), clip.rate), "hasVideo": "1",
                "hasAudio": clip.hasSound ? "1" : "0", "format": format,
            ],
            [
                XMLTree("media-rep", ["kind": "original-media", "src": Self.fileURL(clip.path)]),
                XMLTree(
                    "metadata", [:],
                    ["cameraName", "cameraAngle"].map {
                        XMLTree("md", ["key": "com.apple.proapps.studio." + $0, "value": rig])
                    }),
            ])
    }

    /// A take in its rig's lane at `offset` (the timeline's frames from
    /// midnight, as the gap's own time counts them), all of it, its markers at
    /// the frames showing then.
    private func assetClip(_ clip: Clip, asset: String, format: String, lane: Int, offset: Int64) -> XMLTree {
        let first = timecode(of: clip).frame
        let markers = Self.named(clip).map { name, marker in
            XMLTree(
                "marker",
                [
                    "start": Self.rational(first + clip.rate.frame(showing: marker.microseconds), clip.rate),
                    "duration": Self.rational(1, clip.rate), "value": name, "note": marker.timecode,
                ])
        }
        return XMLTree(
            "asset-clip",
            [
                "ref": asset, "lane": "\(lane)", "offset": Self.rational(offset, rate), "name": clip.name,
                "start": Self.rational(first, clip.rate), "duration": Self.rational(length(of: clip), rate),
                "format": format, "tcFormat": clip.rate.dropsFrames ? "DF" : "NDF",
            ], markers)
    }

    /// `frames` of `rate` as FCPXML writes a time: rational seconds (`1001/30000s`), or `0s`.
    static func rational(_ frames: Int64, _ rate: FrameRate) -> String {
        frames == 0 ? "0s" : "\(WideMath.scale(frames, by: rate.seconds, over: 1))/\(rate.frames)s"
    }

    /// A `format` resource: a frame rate and, when known, a picture size.
    private struct Format: Hashable {
        var rate: FrameRate
        var size: Size?

        init(rate: FrameRate, size: Size?) {
            self.rate = rate
            self.size = size
        }

        init(_ clip: Clip) { self.init(rate: clip.rate, size: clip.size) }
    }
}

/// The timeline as an MLT XML project, which melt renders and Kdenlive and
/// Shotcut open: a profile of the timeline's rate and picture size (the size
/// left to MLT when no take's file was read), an avformat producer for each
/// take, a playlist for each rig (its takes, blanks between) and a tractor
/// with a track for each playlist, the first rig's at the bottom. A Kdenlive
/// bin (`main_bin`, the first playlist) lists the takes and holds their
/// markers as guides. Positions and lengths are frames of the timeline's rate.
extension MulticamTimeline {
    public func mlt() -> XMLTree {
        var producers: [Clip: String] = [:]
        var elements: [XMLTree] = []
        var playlists: [XMLTree] = []
        var guides: [JSONValue] = []
        for (number, track) in tracks.enumerated() {
            var items = [Self.property("kdenlive:track_name", track.name)]
            var end: Int64 = 0
            for (clip, at) in places(on: track) {
                if producers[clip] == nil {
                    producers[clip] = "producer\(producers.count)"
                    elements.append(producer(clip, id: producers[clip]!, bin: producers.count + 1))
                }
                if at > end { items.append(XMLTree("blank", ["length": "\(at - end)"])) }
                end = at + length(of: clip)
                items.append(XMLTree("entry", ["producer": producers[clip], "in": "0", "out": "\(length(of: clip) - 1)"]))
                guides += Self.named(clip).map { name, marker in
                    let position = at + rate.frame(showing: marker.microseconds)
                    return .object(["comment": .string(name), "pos": .integer(Int(position)), "type": .integer(0)])
                }
            }
            playlists.append(XMLTree("playlist", ["id": "playlist\(number)"], items))
        }
        let bin = XMLTree(
            "playlist", ["id": "main_bin"],
            [
                Self.property("kdenlive:docproperties.version", "0.98"),
                Self.property("kdenlive:docproperties.guides", JSONLine.encode(JSONValue.array(guides))),
                Self.property("xml_retain", "1"),
            ] + (0..<producers.count).map { XMLTree("entry", ["producer": "producer\($0)"]) })
        let tractor = XMLTree(
            "tractor", ["id": "tractor0", "in": "0", "out": "\(max(0, length - 1))"],
            tracks.indices.map { XMLTree("track", ["producer": "playlist\($0)"]) })
        return XMLTree(
            "mlt", ["LC_NUMERIC": "C", "title": name, "producer": "main_bin"],
            [profile()] + elements + [bin] + playlists + [tractor])
    }

    /// The timeline's rate, and its picture size in square pixels when known.
    private func profile() -> XMLTree {
        var profile = XMLTree(
            "profile",
            [
                "description": name, "progressive": "1", "frame_rate_num": "\(rate.frames)",
                "frame_rate_den": "\(rate.seconds)",
            ])
        if let size {
            let divisor = max(1, Int(Fraction.gcd(Int64(size.width), Int64(size.height))))
            profile.attributes += [
                ("width", "\(size.width)"), ("height", "\(size.height)"), ("sample_aspect_num", "1"),
                ("sample_aspect_den", "1"), ("display_aspect_num", "\(size.width / divisor)"),
                ("display_aspect_den", "\(size.height / divisor)"),
            ]
        }
        return profile
    }

    /// A take's file, read by libavformat; `bin` is its Kdenlive clip id.
    private func producer(_ clip: Clip, id: String, bin: Int) -> XMLTree {
        XMLTree(
            "producer", ["id": id],
            [
                Self.property("resource", clip.path), Self.property("mlt_service", "avformat"),
                Self.property("kdenlive:clipname", clip.name), Self.property("kdenlive:id", "\(bin)"),
            ])
    }

    private static func property(_ name: String, _ value: String) -> XMLTree {
        XMLTree("property", ["name": name], text: value)
    }
}

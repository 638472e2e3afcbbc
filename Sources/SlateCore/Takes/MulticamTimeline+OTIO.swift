/// The timeline as OpenTimelineIO's JSON (`.otio`): a Stack of one video Track
/// a rig, each take a Clip with an ExternalReference to its file and its
/// markers, Gaps between; its global start time is the first take's time of
/// day, and each clip's source range starts at its own timecode, so editors
/// that read OTIO show the rigs' timecode and line the takes up by it.
extension MulticamTimeline {
    public func otio() -> JSONValue {
        .object([
            "OTIO_SCHEMA": "Timeline.1", "name": .string(name), "metadata": .object([:]),
            "global_start_time": Self.time(Timecode(microsecondsOfDay: startOfDay, rate: rate).frame, rate),
            "tracks": Self.item(
                "Stack.1", name: "tracks", ["children": .array(tracks.map(otioTrack)), "source_range": .null]),
        ])
    }

    private func otioTrack(_ track: Track) -> JSONValue {
        var children: [JSONValue] = []
        var end: Int64 = 0
        for (clip, at) in places(on: track) {
            if at > end {
                children.append(Self.item("Gap.1", name: "", ["source_range": Self.range(0, at - end, rate)]))
            }
            children.append(otioClip(clip))
            end = at + length(of: clip)
        }
        return Self.item(
            "Track.1", name: track.name, ["kind": "Video", "children": .array(children), "source_range": .null])
    }

    private func otioClip(_ clip: Clip) -> JSONValue {
        let first = timecode(of: clip).frame
        let range = Self.range(first, Int64(clip.frames), clip.rate)
        let markers: [JSONValue] = Self.named(clip).map { name, marker in
            // The frame showing then, as the marker's timecode counts it.
            let at = first + clip.rate.frame(showing: marker.microseconds)
            return .object([
                "OTIO_SCHEMA": "Marker.2", "name": .string(name), "color": "RED",
                "comment": .string(marker.timecode ?? ""), "metadata": .object([:]),
                "marked_range": Self.range(at, 0, clip.rate),
            ])
        }
        let reference: JSONValue = .object([
            "OTIO_SCHEMA": "ExternalReference.1", "name": .string(clip.name), "metadata": .object([:]),
            "target_url": .string(Self.fileURL(clip.path)), "available_range": range,
        ])
        return Self.item(
            "Clip.2", name: clip.name,
            [
                "source_range": range, "media_references": .object(["DEFAULT_MEDIA": reference]),
                "active_media_reference_key": "DEFAULT_MEDIA",
            ], markers: markers)
    }

    /// An OTIO item: its schema, name and the members every item has.
    private static func item(
        _ schema: String, name: String, _ members: [String: JSONValue], markers: [JSONValue] = []
    ) -> JSONValue {
        var object: [String: JSONValue] = [
            "OTIO_SCHEMA": .string(schema), "name": .string(name), "metadata": .object([:]), "effects": .array([]),
            "markers": .array(markers), "enabled": .bool(true),
        ]
        object.merge(members) { _, new in new }
        return .object(object)
    }

    private static func time(_ value: Int64, _ rate: FrameRate) -> JSONValue {
        .object([
            "OTIO_SCHEMA": "RationalTime.1", "value": .number(Double(value)),
            "rate": .number(Double(rate.frames) / Double(rate.seconds)),
        ])
    }

    private static func range(_ start: Int64, _ duration: Int64, _ rate: FrameRate) -> JSONValue {
        .object(["OTIO_SCHEMA": "TimeRange.1", "start_time": time(start, rate), "duration": time(duration, rate)])
    }

    /// `file://` and the path, its bytes outside the unreserved ones and `/` percent-encoded.
    static func fileURL(_ path: String) -> String {
        let plain = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var url = Array("file://".utf8)
        for byte in path.utf8 {
            if plain.contains(byte) {
                url.append(byte)
            } else {
                url += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: url, as: UTF8.self)
    }
}

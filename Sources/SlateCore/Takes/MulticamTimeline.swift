/// Several rigs' takes on one timeline for an editor, each at the instant of
/// its first frame (CLOCK_REALTIME): one track a rig, a gap where a rig did
/// not record. What `slate takes timeline` writes as OpenTimelineIO, FCPXML
/// or an MLT project.
public struct MulticamTimeline: Sendable {
    /// A picture's width and height, in pixels.
    public struct Size: Hashable, Sendable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// A take as the timeline places it.
    public struct Clip: Hashable, Sendable {
        /// Its file's name and absolute path.
        public var name: String
        public var path: String
        /// Its first frame, microseconds since 1970.
        public var started: Int64
        public var frames: Int
        public var rate: FrameRate
        public var markers: [TakeMarker]
        /// The timecode its file carries, when it has one.
        public var timecode: Timecode?
        /// Whether its file has sound.
        public var hasSound: Bool
        /// Its picture's size as shown, when its file was read.
        public var size: Size?

        public init(
            name: String, path: String, started: Int64, frames: Int, rate: FrameRate, markers: [TakeMarker] = [],
            timecode: Timecode? = nil, hasSound: Bool = false, size: Size? = nil
        ) {
            self.name = name
            self.path = path
            self.started = started
            self.frames = frames
            self.rate = rate
            self.markers = markers
            self.timecode = timecode
            self.hasSound = hasSound
            self.size = size
        }

        /// `take` of a work folder at `path`: its frames (the dropped ones' slots
        /// too, as its file's length counts them), its rate (`fps`, else its
        /// frames over its length), its timecode, markers and whether it has sound.
        public init(_ take: TakeManifest.Take, path: String) {
            let seconds = Double(take.summary.duration.microseconds) / 1_000_000
            // Hostile counts are bounded: a take of more than 2³¹ frames is no take Slate wrote.
            let slots = [take.summary.frames, take.summary.dropped].map { min(max(0, $0), Int(Int32.max)) }.reduce(0, +)
            let measured = seconds > 0 ? min(1000, max(1, Int((Double(slots) / seconds).rounded()))) : 30
            let rate = take.fps ?? FrameRate(measured)
            self.init(
                name: take.file, path: path, started: take.started, frames: slots,
                rate: rate, markers: take.markers, timecode: take.timecode.flatMap { Timecode($0, rate: rate) },
                hasSound: take.sound != nil)
        }
    }

    /// A rig's takes, in the order they were recorded.
    public struct Track: Hashable, Sendable {
        public var name: String
        public var clips: [Clip]

        public init(name: String, clips: [Clip]) {
            self.name = name
            self.clips = clips.sorted { $0.started < $1.started }
        }
    }

    public var name: String
    public var tracks: [Track]
    /// The timeline's rate and picture size: its first take's.
    public let rate: FrameRate
    public let size: Size?
    /// Its start: the earliest first frame, microseconds since 1970.
    public let start: Int64
    /// That instant's time of day, in microseconds: the timeline's timecode starts there.
    public let startOfDay: Int64

    /// `tracks` on one timeline; nil when none holds a take. `timeOfDay` gives an
    /// instant's local time of day (this machine's time zone), for takes that carry no timecode.
    public init?(name: String, tracks: [Track], timeOfDay: (Int64) -> Int64) {
        let clips = tracks.flatMap(\.clips)
        guard let first = clips.min(by: { $0.started < $1.started }) else { return nil }
        self.name = name
        self.tracks = tracks
        rate = first.rate
        size = first.size
        start = first.started
        // The rig's own time of day, from the first take's timecode, where it has one.
        // (Rounded up: the frame showing at that instant is the timecode's frame, not the one before.)
        let rate = first.rate
        startOfDay =
            first.timecode.map { -WideMath.scale(-$0.frame, by: rate.seconds * 1_000_000, over: rate.frames) }
            ?? timeOfDay(first.started)
    }

    /// Where `clip` starts on the timeline, in the timeline's frames from its start.
    public func position(of clip: Clip) -> Int64 { rate.frame(at: clip.started - start) }

    /// `track`'s takes and where each is placed, in the timeline's frames from
    /// its start: at its position, or where the take before ends when that is
    /// later (a frame's rounding). A take of no frames has no place.
    public func places(on track: Track) -> [(clip: Clip, at: Int64)] {
        var end: Int64 = 0
        return track.clips.filter { length(of: $0) > 0 }.map { clip in
            let at = max(end, position(of: clip))
            end = at + length(of: clip)
            return (clip, at)
        }
    }

    /// The timeline's length in its frames: to the end of its last take.
    public var length: Int64 {
        tracks.flatMap(places).map { $0.at + length(of: $0.clip) }.max() ?? 0
    }

    /// `clip`'s length in the timeline's frames.
    public func length(of clip: Clip) -> Int64 {
        WideMath.scale(Int64(clip.frames), by: rate.frames * clip.rate.seconds, over: rate.seconds * clip.rate.frames)
    }

    /// `clip`'s markers, each with its name, else `Marker 1`, `Marker 2`… by its place in the take.
    static func named(_ clip: Clip) -> [(name: String, marker: TakeMarker)] {
        clip.markers.enumerated().map { number, marker in (marker.name ?? "Marker \(number + 1)", marker) }
    }

    /// The timecode of `clip`'s first frame, in its own frames since midnight:
    /// its file's, else its place's from the timeline's start.
    public func timecode(of clip: Clip) -> Timecode {
        clip.timecode ?? Timecode(microsecondsOfDay: startOfDay + (clip.started - start), rate: clip.rate)
    }
}

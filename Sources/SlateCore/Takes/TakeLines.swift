/// `slate takes list --json`: one take, numbered from 1 as the commands number them.
public struct TakeListLine: Codable, Hashable, Sendable {
    public var number: Int
    public var path: String
    public var thumbnail: String?
    /// When the take started, UTC (`2026-11-21T09:45:12.345Z`).
    public var start: String
    /// Its first frame on CLOCK_REALTIME, in nanoseconds since 1970.
    public var realtimeNs: Int64
    /// Seconds, to the millisecond.
    public var duration: Double
    public var frames: Int
    public var dropped: Int
    public var codec: String
    public var recording: Bool
    /// Why the take is kept after an export that holds only part of it.
    public var kept: String?

    enum CodingKeys: String, CodingKey {
        case number, path, thumbnail, start, duration, frames, dropped, codec, recording, kept
        case realtimeNs = "realtime_ns"
    }

    public init(
        number: Int, path: String, thumbnail: String?, start: String, realtimeNs: Int64, duration: Double, frames: Int,
        dropped: Int, codec: String, recording: Bool, kept: String?
    ) {
        self.realtimeNs = realtimeNs
        self.number = number
        self.path = path
        self.thumbnail = thumbnail
        self.start = start
        self.duration = duration
        self.frames = frames
        self.dropped = dropped
        self.codec = codec
        self.recording = recording
        self.kept = kept
    }
}

/// `slate record --json`: the take recorded and the encoder that wrote it.
public struct RecordLine: Codable, Hashable, Sendable {
    public var path: String
    public var thumbnail: String?
    public var encoder: String
    /// Seconds, to the millisecond.
    public var duration: Double
    public var frames: Int
    public var dropped: Int
    /// The take's sound, when it was recorded with sound.
    public var sound: SoundSummary?

    public init(
        path: String, thumbnail: String?, encoder: String, duration: Double, frames: Int, dropped: Int,
        sound: SoundSummary? = nil
    ) {
        self.path = path
        self.thumbnail = thumbnail
        self.encoder = encoder
        self.duration = duration
        self.frames = frames
        self.dropped = dropped
        self.sound = sound
    }
}

/// `slate takes export --json`: the exported file, how the takes were joined
/// (`method`: `stream copy` or `re-encode`, with the `reason` and `encoder`),
/// how their sound was made (`sound`: `copied` or `re-encoded with aac (…)`,
/// none without sound), the takes exported short, and whether the takes were kept.
public struct ExportLine: Codable, Hashable, Sendable {
    public var path: String
    public var takes: Int
    public var frames: Int
    /// Seconds, to the millisecond.
    public var duration: Double
    public var method: String
    public var reason: String?
    public var encoder: String?
    public var sound: String?
    public var kept: Bool
    public var short: [String]?

    public init(
        path: String, takes: Int, frames: Int, duration: Double, method: ExportPlan.Method, encoder: String?,
        sound: String? = nil,
        kept: Bool, short: [String]
    ) {
        self.path = path
        self.takes = takes
        self.frames = frames
        self.duration = duration
        switch method {
        case .streamCopy: self.method = "stream copy"
        case .reencode(let reason):
            self.method = "re-encode"
            self.reason = reason
        }
        self.encoder = encoder
        self.sound = sound
        self.kept = kept
        self.short = short.isEmpty ? nil : short
    }
}

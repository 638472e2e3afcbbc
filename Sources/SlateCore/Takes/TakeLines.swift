/// `slate takes list --json`: one take, numbered from 1 as the commands number them.
public struct TakeListLine: Hashable, Sendable {
    public var number: Int
    public var path: String
    public var thumbnail: String?
    /// When the take started, UTC (`2026-11-21T09:45:12.345Z`).
    public var start: String
    /// Its first frame on CLOCK_REALTIME, in nanoseconds since 1970.
    public var realtimeNs: Int64
    public var summary: TakeSummary
    public var codec: String
    public var recording: Bool
    /// Why the take is kept after an export that holds only part of it.
    public var kept: String?
    /// Its first frame's timecode.
    public var timecode: String?

    /// The line of a take of the manifest, numbered `number`, its files at `path` and `thumbnail`.
    public init(number: Int, take: TakeManifest.Take, path: String, thumbnail: String?) {
        self.number = number
        self.path = path
        self.thumbnail = thumbnail
        start = UTCTime.format(microseconds: take.started)
        realtimeNs = take.started &* 1000
        summary = take.summary
        codec = take.codec
        recording = take.recording
        kept = take.kept
        timecode = take.timecode
    }
}

extension TakeListLine: Codable {
    enum CodingKeys: String, CodingKey {
        case number, path, thumbnail, start, codec, recording, kept, timecode
        case realtimeNs = "realtime_ns"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        number = try container.decode(Int.self, forKey: .number)
        path = try container.decode(String.self, forKey: .path)
        thumbnail = try container.decodeIfPresent(String.self, forKey: .thumbnail)
        start = try container.decode(String.self, forKey: .start)
        realtimeNs = try container.decode(Int64.self, forKey: .realtimeNs)
        summary = try TakeSummary(from: decoder)
        codec = try container.decode(String.self, forKey: .codec)
        recording = try container.decode(Bool.self, forKey: .recording)
        kept = try container.decodeIfPresent(String.self, forKey: .kept)
        timecode = try container.decodeIfPresent(String.self, forKey: .timecode)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(number, forKey: .number)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        try container.encode(start, forKey: .start)
        try container.encode(realtimeNs, forKey: .realtimeNs)
        try summary.encode(to: encoder)
        try container.encode(codec, forKey: .codec)
        try container.encode(recording, forKey: .recording)
        try container.encodeIfPresent(kept, forKey: .kept)
        try container.encodeIfPresent(timecode, forKey: .timecode)
    }
}

/// `slate record --json`: the take recorded and the encoder that wrote it.
public struct RecordLine: Hashable, Sendable {
    public var path: String
    public var thumbnail: String?
    public var encoder: String
    public var summary: TakeSummary
    /// The take's sound, when it was recorded with sound.
    public var sound: SoundSummary?
    /// The take's proxy, when it has one.
    public var proxy: String?

    public init(
        path: String, thumbnail: String?, encoder: String, summary: TakeSummary, sound: SoundSummary? = nil, proxy: String? = nil
    ) {
        self.proxy = proxy
        self.path = path
        self.thumbnail = thumbnail
        self.encoder = encoder
        self.summary = summary
        self.sound = sound
    }
}

extension RecordLine: Codable {
    enum CodingKeys: String, CodingKey {
        case path, thumbnail, encoder, sound, proxy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        thumbnail = try container.decodeIfPresent(String.self, forKey: .thumbnail)
        encoder = try container.decode(String.self, forKey: .encoder)
        summary = try TakeSummary(from: decoder)
        sound = try container.decodeIfPresent(SoundSummary.self, forKey: .sound)
        proxy = try container.decodeIfPresent(String.self, forKey: .proxy)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        try container.encode(self.encoder, forKey: .encoder)
        try summary.encode(to: encoder)
        try container.encodeIfPresent(sound, forKey: .sound)
        try container.encodeIfPresent(proxy, forKey: .proxy)
    }
}

/// `slate takes export --json`: the exported file, how the takes were joined
/// (`method`: `stream copy` or `re-encode`, with the `reason` and `encoder`),
/// how their sound was made (`sound`: `copied` or `re-encoded with aac (…)`,
/// none without sound), the takes exported short, whether the takes were
/// kept, and the export's `proxy` (or, when its takes' proxies could not be
/// joined, `proxy_failure`).
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
    /// The export's proxy, joined from its takes'.
    public var proxy: String?
    /// Why the takes' proxies were not joined.
    public var proxyFailure: String?

    enum CodingKeys: String, CodingKey {
        case path, takes, frames, duration, method, reason, encoder, sound, kept, short, proxy
        case proxyFailure = "proxy_failure"
    }

    public init(
        path: String, takes: Int, frames: Int, duration: Double, method: ExportPlan.Method, encoder: String?,
        sound: String? = nil, kept: Bool, short: [String], proxy: String? = nil, proxyFailure: String? = nil
    ) {
        self.proxy = proxy
        self.proxyFailure = proxyFailure
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

/// What a take holds: its length, the frames recorded and the frames lost (the
/// camera's or the pipeline's). The one value the manifest, the report lines,
/// the page's status, `slate takes list`, `slate record` and the recorder's
/// gauges share.
///
/// As JSON it is three fields of the object that holds it: `duration` in
/// seconds (to the millisecond), `frames` and `dropped`. Decoding accepts a
/// missing field as zero and refuses a negative count or a duration outside
/// 0...1e9 seconds.
public struct TakeSummary: Hashable, Sendable {
    public var duration: Duration
    public var frames: Int
    public var dropped: Int

    public init(duration: Duration = .zero, frames: Int = 0, dropped: Int = 0) {
        self.duration = duration
        self.frames = frames
        self.dropped = dropped
    }

    /// `1.600 s, 48 frames, 0 dropped`.
    public var text: String {
        Instant.formatSeconds(duration.microseconds, decimals: 3) + " s, \(frames) frames, \(dropped) dropped"
    }
}

extension TakeSummary: Codable {
    enum CodingKeys: String, CodingKey {
        case duration, frames, dropped
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func count(_ key: CodingKeys) throws -> Int {
            let value = try container.decodeIfPresent(Int.self, forKey: key) ?? 0
            guard value >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "\(key.stringValue) must not be negative, not \(value)")
            }
            return value
        }
        let seconds = try container.decodeIfPresent(Double.self, forKey: .duration) ?? 0
        guard (0...1e9).contains(seconds) else {
            throw DecodingError.dataCorruptedError(
                forKey: .duration, in: container, debugDescription: "duration must be from 0 to 1e9 seconds, not \(seconds)")
        }
        duration = .microseconds(Int64((seconds * 1_000_000).rounded()))
        frames = try count(.frames)
        dropped = try count(.dropped)
    }

    public func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, decimals: 3)
    }

    /// Encodes the summary with its duration to `decimals` places (the manifest keeps microseconds).
    func encode(to encoder: any Encoder, decimals: Int) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(duration.inSeconds(decimals: decimals), forKey: .duration)
        try container.encode(frames, forKey: .frames)
        try container.encode(dropped, forKey: .dropped)
    }
}

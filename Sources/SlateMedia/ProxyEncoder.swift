import SlateCore

/// Encodes a take's proxy (`ProxySpec`) from the pictures the take is made
/// of: each scaled once by libswscale and encoded by libx264 at the proxy's
/// bit rate, with a keyframe wherever the take's stream has one, so a take
/// (and each of its fragments) starts on the same frame in both files.
public final class ProxyEncoder {
    public let width: Int
    public let height: Int
    public let bitRate: Int
    /// What the proxy's muxer needs.
    public var parameters: VideoStreamParameters { encoder.parameters }
    private let encoder: VideoEncoder
    private let scaler: PictureScaler
    /// Scaled pictures whose take packets have not come out of the take's encoder yet, oldest first.
    private var waiting: [(pts: Int64, picture: VideoFrame)] = []
    /// At most this many pictures wait for the take's encoder (one does, behind libx264's zero latency).
    static let waitingLimit = 8

    /// A proxy for a source's pictures; nil when the source is no larger than the proxy.
    public init?(_ spec: ProxySpec, source: SourceFormat) throws(MediaError) {
        guard let size = spec.size(forWidth: source.width, height: source.height) else { return nil }
        width = size.width
        height = size.height
        bitRate = spec.bitRate(width: size.width, height: size.height, fps: source.fps)
        scaler = try PictureScaler(width: size.width, height: size.height)
        encoder = try VideoEncoder(
            codecs: ["libx264"], width: size.width, height: size.height, fps: source.fps, color: source.color,
            bitRate: bitRate)
    }

    /// Scales `picture`, the take's at `pts`, to wait for the take's packet at `pts`.
    public func hold(_ picture: VideoFrame, pts: Int64) throws(MediaError) {
        waiting.append((pts, try scaler.scale(picture)))
        if waiting.count > Self.waitingLimit { waiting.removeFirst(waiting.count - Self.waitingLimit) }
    }

    /// The proxy's packets for the take's `packet`: its picture encoded, a
    /// keyframe when the take's is one; none when no picture waits for it.
    public func packets(matching packet: EncodedPacket) throws(MediaError) -> [EncodedPacket] {
        waiting.removeAll { $0.pts < packet.pts }
        guard let first = waiting.first, first.pts == packet.pts else { return [] }
        waiting.removeFirst()
        return try encoder.encode(first.picture, pts: packet.pts, keyframe: packet.isKeyframe)
    }
}

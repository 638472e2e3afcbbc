import SlateCore

/// Encodes a take's proxy (`ProxySpec`) from the pictures the take is made
/// of: each scaled once by libswscale and encoded by libx264 (ultrafast, one
/// thread) at a constant quality under the proxy's bit rate, with keyframes only where asked (wherever the take's stream has
/// one), so a take and each of its fragments start and end on the same
/// frames in both files.
public final class ProxyEncoder {
    /// What the proxy's muxer needs.
    public var parameters: VideoStreamParameters { encoder.parameters }
    private let encoder: VideoEncoder
    private let scaler: PictureScaler
    /// Scaled pictures whose take packets have not come out of the take's encoder yet, oldest first.
    private var waiting: [(pts: Int64, picture: VideoFrame)] = []
    /// At most this many pictures wait for their take packets (libx264's
    /// come out with their frame; a hardware encoder's may come later).
    static let waitingLimit = 8

    /// A proxy for a source's pictures; nil when the source is no larger than the proxy.
    public init?(_ spec: ProxySpec, source: SourceFormat) throws(MediaError) {
        guard let size = spec.size(forWidth: source.width, height: source.height) else { return nil }
        scaler = try PictureScaler(width: size.width, height: size.height)
        encoder = try VideoEncoder(
            codecs: ["libx264"], width: size.width, height: size.height, fps: source.fps, color: source.color,
            bitRate: spec.bitRate(width: size.width, height: size.height, fps: source.fps), proxy: true)
    }

    /// Scales `picture`, the take's at `pts`, to wait for the take's packet at `pts`.
    public func add(_ picture: VideoFrame, pts: Int64) throws(MediaError) {
        waiting.append((pts, try scaler.scale(picture)))
        if waiting.count > Self.waitingLimit { waiting.removeFirst(waiting.count - Self.waitingLimit) }
    }

    /// The proxy's packets for the take's packet at `pts`: its picture
    /// encoded, a keyframe when `keyframe`; none when no picture waits for it.
    public func packets(at pts: Int64, keyframe: Bool) throws(MediaError) -> [EncodedPacket] {
        waiting.removeAll { $0.pts < pts }
        guard let first = waiting.first, first.pts == pts else { return [] }
        waiting.removeFirst()
        return try encoder.encode(first.picture, pts: pts, keyframe: keyframe)
    }
}

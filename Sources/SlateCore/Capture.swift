/// One frame as a camera delivers it in a compressed format (a JPEG picture, or an
/// H.264 access unit in Annex B), before any decoding.
public struct CompressedFrame: Sendable {
    public var data: [UInt8]
    /// When the picture was captured.
    public var time: Instant
    /// A decoder can start here: every MJPEG frame; for H.264, an IDR frame.
    public var isKeyframe: Bool

    public init(data: [UInt8], time: Instant, isKeyframe: Bool) {
        self.data = data
        self.time = time
        self.isKeyframe = isKeyframe
    }
}

/// What a frame source yields: a raw I420 picture, or a compressed frame to pass
/// through or decode.
public enum Capture: Sendable {
    case raw(VideoFrame)
    case compressed(CompressedFrame)

    /// When the picture was captured.
    public var time: Instant {
        switch self {
        case .raw(let frame): frame.time
        case .compressed(let frame): frame.time
        }
    }
}

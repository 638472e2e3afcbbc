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

/// A raw picture as the camera packs it (YUYV, NV12, ...), copied out of the
/// driver's buffer at once and converted to I420 later (`PixelConverter`), off the camera's thread.
public struct PackedFrame: Sendable {
    public var bytes: [UInt8]
    public var format: FourCC
    public var width: Int
    public var height: Int
    public var bytesPerLine: Int
    public var time: Instant

    public init(bytes: [UInt8], format: FourCC, width: Int, height: Int, bytesPerLine: Int, time: Instant) {
        self.bytes = bytes
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.time = time
    }
}

/// What a frame source yields: a raw I420 picture, a raw picture still in the
/// camera's packing, or a compressed frame to pass through or decode.
public enum CameraFrame: Sendable {
    case raw(VideoFrame)
    case packed(PackedFrame)
    case compressed(CompressedFrame)

    /// When the picture was captured.
    public var time: Instant {
        switch self {
        case .raw(let frame): frame.time
        case .packed(let frame): frame.time
        case .compressed(let frame): frame.time
        }
    }
}

/// One picture in I420 (libav's yuv420p): a full-size luma plane and two
/// quarter-size chroma planes, each row packed (stride = plane width).
public struct VideoFrame: Sendable {
    public var width: Int
    public var height: Int
    /// Luma, `width * height` bytes.
    public var y: [UInt8]
    /// Blue-difference chroma, `chromaWidth * chromaHeight` bytes.
    public var u: [UInt8]
    /// Red-difference chroma, `chromaWidth * chromaHeight` bytes.
    public var v: [UInt8]
    /// When the picture was captured.
    public var time: Instant

    public init(width: Int, height: Int, y: [UInt8], u: [UInt8], v: [UInt8], time: Instant) {
        precondition(y.count == width * height, "luma plane size")
        precondition(u.count == VideoFrame.chromaSize(width, height) && v.count == u.count, "chroma plane size")
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.time = time
    }

    /// A frame of one flat color (limited-range Y, Cb, Cr).
    public init(width: Int, height: Int, luma: UInt8 = 16, cb: UInt8 = 128, cr: UInt8 = 128, time: Instant) {
        let chroma = VideoFrame.chromaSize(width, height)
        self.init(
            width: width, height: height, y: [UInt8](repeating: luma, count: width * height),
            u: [UInt8](repeating: cb, count: chroma), v: [UInt8](repeating: cr, count: chroma), time: time)
    }

    /// Chroma planes are half the size in both directions, rounded up.
    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    /// Bytes per row of the luma plane, then of each chroma plane.
    public var strides: (y: Int, u: Int, v: Int) { (width, chromaWidth, chromaWidth) }

    public static func chromaSize(_ width: Int, _ height: Int) -> Int { ((width + 1) / 2) * ((height + 1) / 2) }
}

/// One compressed video frame from an encoder, with its timestamps in the
/// encoder's time base.
public struct EncodedPacket: Sendable {
    public var data: [UInt8]
    /// Presentation time.
    public var pts: Int64
    /// Decoding time; equal to `pts` when the encoder makes no B-frames.
    public var dts: Int64
    public var duration: Int64
    /// A frame a decoder can start from.
    public var isKeyframe: Bool

    public init(data: [UInt8], pts: Int64, dts: Int64, duration: Int64, isKeyframe: Bool) {
        self.data = data
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.isKeyframe = isKeyframe
    }
}

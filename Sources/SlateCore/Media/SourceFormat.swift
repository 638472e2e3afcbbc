/// The size, rate and codec of a source's frames.
public struct SourceFormat: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var fps: FrameRate
    /// libav's codec name for compressed frames, nil for raw I420.
    public var codec: String?
    /// The colours its frames are.
    public var color: ColorTags

    public init(width: Int, height: Int, fps: FrameRate, codec: String?, color: ColorTags = .bt709) {
        self.width = width
        self.height = height
        self.fps = fps
        self.codec = codec
        self.color = color
    }
}

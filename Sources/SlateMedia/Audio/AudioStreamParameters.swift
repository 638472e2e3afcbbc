import SlateCore

/// What a muxer needs to know about an encoded sound stream. Two takes whose
/// parameters are equal can have their sound joined by stream copy.
public struct AudioStreamParameters: Hashable, Sendable {
    /// libav's codec name: `aac`, `opus` or `pcm_s16le`.
    public var codec: String
    public var format: AudioFormat
    /// Frames in each packet (the last may hold fewer).
    public var frameSize: Int
    /// Frames the encoder puts before the first sample (AAC's 1024, Opus's 312):
    /// the first packet starts that many frames before the stream's time 0.
    public var initialPadding: Int
    /// The codec's global header (AAC's AudioSpecificConfig, Opus's OpusHead).
    public var extradata: [UInt8]
    /// Bits per second, or 0 where the codec has no target (PCM).
    public var bitRate: Int

    public init(codec: String, format: AudioFormat, frameSize: Int, initialPadding: Int, extradata: [UInt8], bitRate: Int) {
        self.codec = codec
        self.format = format
        self.frameSize = frameSize
        self.initialPadding = initialPadding
        self.extradata = extradata
        self.bitRate = bitRate
    }

    /// Timestamps count frames: the time base is 1/rate.
    public var timeBase: TimeBase { TimeBase(1, Int32(format.rate)) }

    /// Whether packets of a stream with `other`'s parameters decode as this one's.
    public func canJoin(_ other: AudioStreamParameters) -> Bool {
        codec == other.codec && format == other.format && extradata == other.extradata
    }
}

import CAV
import SlateCore
import SlateSystem

/// A rational time unit: timestamps count `numerator / denominator` seconds.
public struct TimeBase: Hashable, Sendable {
    public var numerator: Int32
    public var denominator: Int32

    public init(_ numerator: Int32, _ denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    var rational: AVRational { AVRational(num: numerator, den: denominator) }

    /// `value` in this time base, in `other`'s units.
    public func convert(_ value: Int64, to other: TimeBase) -> Int64 {
        av_rescale_q(value, rational, other.rational)
    }

    /// `value` in this time base, as microseconds.
    public func microseconds(_ value: Int64) -> Int64 {
        av_rescale_q(value, rational, slate_av_time_base_q())
    }
}

/// What a muxer needs to know about an encoded video stream. Two takes whose
/// parameters are equal can be joined by stream copy.
public struct VideoStreamParameters: Hashable, Sendable {
    /// libav's codec name, e.g. `h264` or `hevc`.
    public var codec: String
    public var width: Int
    public var height: Int
    /// The unit of the packets' timestamps.
    public var timeBase: TimeBase
    /// The codec's global header (SPS/PPS, or VPS/SPS/PPS for HEVC), for the MP4 sample description.
    public var extradata: [UInt8]
    /// The colours its pictures are, as the file states them.
    public var color: ColorTags

    public init(codec: String, width: Int, height: Int, timeBase: TimeBase, extradata: [UInt8], color: ColorTags = .bt709) {
        self.codec = codec
        self.width = width
        self.height = height
        self.timeBase = timeBase
        self.extradata = extradata
        self.color = color
    }
}

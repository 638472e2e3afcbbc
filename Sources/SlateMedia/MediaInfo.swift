import SlateCore
import SlateSystem

/// What `MediaProbe` found in a media file's sound stream.
public struct SoundInfo: Hashable, Sendable {
    /// libav's codec name, e.g. `aac`, `opus` or `pcm_s16le`.
    public var codec: String
    public var format: AudioFormat
    public var packets: Int
    /// From the file's time 0 (or the first packet, if later) to the end of the last packet.
    public var durationMicroseconds: Int64
}

/// What `MediaProbe` found in a media file's first video stream.
public struct MediaInfo: Hashable, Sendable {
    /// libav's container name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    public var format: String
    /// libav's codec name, e.g. `h264`, `hevc` or `mjpeg`.
    public var codec: String
    /// The sample description's four-character code, e.g. `avc1` or `hvc1`.
    public var tag: String
    public var width: Int
    public var height: Int
    /// Packets read, one per frame.
    public var frameCount: Int
    public var keyframeCount: Int
    /// The most frames from a keyframe to the next one (or to the end).
    public var longestKeyframeInterval: Int
    /// From the first frame's pts to the last one's plus its duration.
    public var durationMicroseconds: Int64
    /// Whether the codec's global header (MP4 sample description) is there.
    public var hasExtradata: Bool
    /// Clockwise degrees a player turns the picture, from the display matrix (0 without one).
    public var rotation: Int
    /// Frames the decoder produced, when asked to decode.
    public var decodedFrames: Int?
    /// The file's sound stream, when it has one.
    public var sound: SoundInfo?
    /// The video's timecode at its first frame (its timecode track's), when it has one.
    public var timecode: String?
    /// The file's chapters, in order.
    public var chapters: [Chapter] = []
    /// The colours the video states (`colr`, else the codec's header), by libav's names: nil when unknown.
    public var color: Color?
    /// Primaries, transfer, matrix and range (`tv` or `pc`), as ffprobe prints them.
    public struct Color: Hashable, Sendable {
        public var primaries, transfer, matrix, range: String?

        public init(primaries: String?, transfer: String?, matrix: String?, range: String?) {
            self.primaries = primaries
            self.transfer = transfer
            self.matrix = matrix
            self.range = range
        }
    }
    /// The rate the video's timestamps count frames at (`30000/1001`, libav's `r_frame_rate`), when known:
    /// frames a take dropped leave gaps and lower its average rate, not this one.
    public var frameRate: FrameRate?

    /// A chapter: where it starts, in microseconds, and its title.
    public struct Chapter: Hashable, Sendable {
        public var start: Int64
        public var title: String
    }

    /// The duration in seconds.
    public var seconds: Double { Double(durationMicroseconds) / 1_000_000 }
}

import CAV
import SlateCore
import SlateSystem

/// Reads the sound stream of a take, an export or a sound file: its packets
/// as they are (to join takes by stream copy), or decoded to interleaved
/// 16-bit frames with the time of the first one (to verify sync, to encode
/// again, to play).
public final class SoundReader {
    /// Decoded sound: `samples` interleaved, the first frame at `start`
    /// microseconds of the file's timeline (the encoder's priming removed).
    public struct Decoded: Sendable {
        public var format: AudioFormat
        public var start: Int64
        public var samples: [Int16]

        public var frames: Int { samples.count / max(1, format.channels) }
    }

    public let path: String
    public let parameters: AudioStreamParameters
    private let input: MediaInput
    private let index: Int32
    private let timeBase: AVRational
    private var packet: UnsafeMutablePointer<AVPacket>?

    /// Opens the file `name` of `folder` (never through a link); nil when it has no sound.
    public static func open(_ name: String, in folder: Folder) throws(MediaError) -> SoundReader? {
        try SoundReader(MediaInput(name, in: folder, operation: "open the file"))
    }

    /// Opens the file at `path`; nil when it has no sound.
    public static func open(path: String) throws(MediaError) -> SoundReader? {
        try SoundReader(MediaInput(path: path, operation: "open the file"))
    }

    init?(_ input: MediaInput) throws(MediaError) {
        let context = input.context
        // Only the sound is read: the demuxer skips the other streams' packets, so
        // finding the stream info decodes no picture (no frames of a take's video at its size).
        for index in 0..<Int(context.pointee.nb_streams)
        where context.pointee.streams[index]!.pointee.codecpar.pointee.codec_type != AVMEDIA_TYPE_AUDIO {
            context.pointee.streams[index]!.pointee.discard = AVDISCARD_ALL
        }
        try check(avformat_find_stream_info(context, nil), "read the stream info", path: input.path)
        let found = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard found >= 0 else { return nil }
        self.input = input
        path = input.path
        index = found
        let stream = context.pointee.streams[Int(found)]!
        timeBase = stream.pointee.time_base
        let codecpar = stream.pointee.codecpar!.pointee
        parameters = AudioStreamParameters(
            codec: String(cString: avcodec_get_name(codecpar.codec_id)),
            format: AudioFormat(rate: Int(codecpar.sample_rate), channels: Int(codecpar.ch_layout.nb_channels)),
            frameSize: Int(codecpar.frame_size), initialPadding: Int(codecpar.initial_padding),
            extradata: codecpar.extradata_size > 0
                ? Array(UnsafeBufferPointer(start: codecpar.extradata, count: Int(codecpar.extradata_size))) : [],
            bitRate: Int(codecpar.bit_rate))
        packet = av_packet_alloc()
    }

    deinit { av_packet_free(&packet) }

    /// Hands every sound packet to `body` in file order, timestamps in frames
    /// (1/rate), and returns the read error that ended the reading early, if one did.
    public func forEachPacket(_ body: (EncodedPacket) throws -> Void) throws -> MediaError? {
        guard let packet else { return nil }
        let frames = AVRational(num: 1, den: Int32(parameters.format.rate))
        while true {
            let status = av_read_frame(input.context, packet)
            if status == slate_averror_eof() { return nil }
            if status < 0 { return MediaError("read the sound", path: path, code: status) }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let p = packet.pointee
            let none = slate_av_nopts_value()
            let pts = p.pts != none ? p.pts : p.dts
            let duration = p.duration > 0 ? av_rescale_q(p.duration, timeBase, frames) : Int64(parameters.frameSize)
            try body(
                EncodedPacket(
                    data: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))),
                    pts: av_rescale_q(pts, timeBase, frames), dts: av_rescale_q(p.dts != none ? p.dts : pts, timeBase, frames),
                    duration: duration, isKeyframe: true))
        }
    }

    /// Decodes the whole stream into interleaved 16-bit frames. Frames before
    /// the file's time 0 (the encoder's priming, which the edit list hides
    /// from players) are dropped.
    public func decodeAll() throws(MediaError) -> Decoded {
        let decoding = try SoundDecoding(self, to: parameters.format)
        var samples: [Int16] = []
        while let block = try decoding.next() { samples += block }
        return Decoded(format: parameters.format, start: decoding.start ?? 0, samples: samples)
    }

    /// Reads the next packet of the sound stream into `packet`: false at the
    /// stream's end. The caller unrefs the packet.
    func readPacket() throws(MediaError) -> UnsafeMutablePointer<AVPacket>? {
        guard let packet else { return nil }
        while true {
            let status = av_read_frame(input.context, packet)
            if status == slate_averror_eof() { return nil }
            try check(status, "read the sound", path: path)
            if packet.pointee.stream_index == index { return packet }
            av_packet_unref(packet)
        }
    }

    /// The sound stream's codec parameters and time base, for a decoder.
    var stream: (codecpar: UnsafeMutablePointer<AVCodecParameters>, timeBase: AVRational) {
        (input.context.pointee.streams[Int(index)]!.pointee.codecpar, timeBase)
    }
}

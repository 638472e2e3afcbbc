import CAV
import SlateCore
import SlateSystem

/// Reads the encoded video packets of a take, in file order, for joining takes
/// without re-encoding. Timestamps are in the stream's own time base.
public final class PacketReader {
    public let path: String
    public let parameters: VideoStreamParameters
    /// Clockwise degrees to display the video, from its display matrix.
    public let rotation: Int
    private let input: MediaInput
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let index: Int32
    /// One frame at the stream's frame rate, in its time base.
    public let frameDuration: Int64
    /// The stream's frame rate (the rate its timestamps count, else its average, else one frame a packet duration).
    public let frameRate: FrameRate

    /// Opens the take `name` of `folder`, never through a link.
    public convenience init(_ name: String, in folder: Folder) throws(MediaError) {
        try self.init(try MediaInput(name, in: folder, operation: "open the take"))
    }

    private init(_ input: MediaInput) throws(MediaError) {
        self.input = input
        let path = input.path
        self.path = path
        let opened = input.context
        try check(avformat_find_stream_info(opened, nil), "read the stream info", path: path)
        index = try check(
            av_find_best_stream(opened, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0), "find a video stream", path: path)
        let stream = opened.pointee.streams[Int(index)]!
        let codecpar = stream.pointee.codecpar!.pointee
        let timeBase = stream.pointee.time_base
        let rate = stream.pointee.r_frame_rate.num > 0 ? stream.pointee.r_frame_rate : stream.pointee.avg_frame_rate
        frameDuration = rate.num > 0 ? max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase)) : 1
        let measured = rate.num > 0 && rate.den > 0 ? FrameRate(frames: Int64(rate.num), per: Int64(rate.den)) : nil
        frameRate =
            (measured ?? FrameRate(interval: Fraction(Int64(timeBase.num) * frameDuration, Int64(timeBase.den))))?.standard
            ?? FrameRate(30)
        let extradata =
            codecpar.extradata_size > 0
            ? Array(UnsafeBufferPointer(start: codecpar.extradata, count: Int(codecpar.extradata_size))) : []
        parameters = VideoStreamParameters(
            codec: String(cString: avcodec_get_name(codecpar.codec_id)), width: Int(codecpar.width),
            height: Int(codecpar.height), timeBase: TimeBase(timeBase.num, timeBase.den), extradata: extradata,
            color: ColorTags(codecpar))
        rotation = displayRotation(of: stream)
        packet = av_packet_alloc()
    }

    deinit {
        av_packet_free(&packet)
    }

    /// The next video packet, or nil at the end of the file (or of its last
    /// complete fragment); a read error is thrown, never taken for the end.
    public func next() throws(MediaError) -> EncodedPacket? {
        let context = input.context
        guard let packet else { return nil }
        while true {
            let status = av_read_frame(context, packet)
            if status == slate_averror_eof() { return nil }
            try check(status, "read the take", path: path)
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == index else { continue }
            let p = packet.pointee
            let none = slate_av_nopts_value()
            let pts = p.pts != none ? p.pts : p.dts
            return EncodedPacket(
                data: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))), pts: pts,
                dts: p.dts != none ? p.dts : pts, duration: p.duration > 0 ? p.duration : frameDuration,
                isKeyframe: p.flags & AV_PKT_FLAG_KEY != 0)
        }
    }

    /// Hands every packet to `body`, in file order, and returns the read error
    /// that ended the reading early, if one did (errors of `body` are thrown).
    public func forEachPacket(_ body: (EncodedPacket) throws -> Void) rethrows -> MediaError? {
        while true {
            let packet: EncodedPacket?
            do {
                packet = try next()
            } catch {
                return error
            }
            guard let packet else { return nil }
            try body(packet)
        }
    }
}

import CAV
import SlateCore
import SlateSystem

/// A libavcodec video encoder for I420 frames, set up for recording live:
/// no B-frames (pts == dts), no look-ahead, a keyframe every second, and a
/// global header (extradata) for MP4. The encoder's worker threads block
/// every signal, so SIGINT and SIGTERM reach the program's own handling.
///
/// A hardware encoder gets the device and surfaces it needs
/// (`HardwareFrames`: VAAPI, QSV, NVENC). A V4L2 M2M encoder, which gives no
/// global header, has its parameter sets taken from its first keyframe and
/// put again in front of every keyframe that comes without them, so each
/// keyframe (a take's first frame) can be decoded on its own.
///
/// libx264 and libx265 copy each picture into frames of their own as it is
/// sent (in `x264_encoder_encode` and `x265_encoder_encode`, which
/// `avcodec_send_frame` calls), so they read the picture's planes where they
/// are; any other encoder gets a copy in a padded frame of its own.
public final class VideoEncoder {
    /// The libavcodec encoder in use, e.g. `libx264`.
    public let codecName: String
    /// The encoder's preset, when it has one (`veryfast`, `ultrafast`, `p1`).
    public let preset: String?
    public let fps: FrameRate
    /// What the muxer needs; the time base is the frame interval, so pts counts frames.
    /// A V4L2 M2M encoder's extradata comes with its first keyframe.
    public private(set) var parameters: VideoStreamParameters
    /// The device and surfaces of a hardware encoder.
    private let hardware: HardwareFrames?
    /// The encoder writes its parameter sets into its stream (V4L2 M2M): they
    /// are repeated before each keyframe without them.
    private let parameterSetsInStream: Bool
    /// The encoder is lent each picture's planes rather than a copy.
    private let lendsPictures: Bool

    private let context: UnsafeMutablePointer<AVCodecContext>
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var flushed = false

    /// The libavcodec encoders tried for a codec, in order. A name that is not
    /// a codec (`libx264`) is an encoder name tried on its own.
    public static func encoderNames(for codec: String) -> [String] {
        switch codec.lowercased() {
        case "hevc", "h265": ["libx265", "hevc_vaapi", "hevc_qsv", "hevc_nvenc"]
        case "h264", "avc": ["libx264", "h264_vaapi", "h264_qsv", "h264_nvenc", "h264_v4l2m2m"]
        default: [codec]
        }
    }

    /// Opens the first encoder that works for the first codec that has one.
    ///
    /// `codecs` are codec names in preference order, e.g. `["hevc", "h264"]`.
    /// Hardware encoders count only if they open. Without `bitRate` the
    /// encoder's constant-quality default is used. A `proxy` encoder is
    /// libx264 at its fastest on one thread, with keyframes only where
    /// `encode` asks (no interval, no scene cuts): a proxy's keyframes are
    /// its take's, and it costs as little as it can beside the take's encoder.
    public init(
        codecs: [String], width: Int, height: Int, fps: FrameRate, color: ColorTags = .bt709, bitRate: Int? = nil,
        proxy: Bool = false
    ) throws(MediaError) {
        _ = LibAV.setUp
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw MediaError(
                "open a video encoder", path: codecs.joined(separator: ","),
                message: "the size \(width)x\(height) must be positive and even")
        }
        var failures: [String] = []
        for name in codecs.flatMap(VideoEncoder.encoderNames(for:)) {
            switch VideoEncoder.open(
                name, width: width, height: height, fps: fps, color: color, bitRate: bitRate,
                proxy: proxy)
            {
            case .success(let (context, preset, hardware)):
                self.context = context
                self.codecName = name
                self.preset = preset
                self.hardware = hardware
                self.fps = fps
                parameterSetsInStream = name == "h264_v4l2m2m"
                lendsPictures = hardware == nil && ["libx264", "libx265"].contains(name)
                let extradata =
                    context.pointee.extradata.map {
                        Array(UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size)))
                    }
                    ?? []
                parameters = VideoStreamParameters(
                    codec: String(cString: avcodec_get_name(context.pointee.codec_id)), width: width, height: height,
                    timeBase: TimeBase(context.pointee.time_base.num, context.pointee.time_base.den), extradata: extradata,
                    color: color)
                frame = av_frame_alloc()
                packet = av_packet_alloc()
                guard let frame, packet != nil else {
                    throw MediaError("allocate a frame", path: name, code: slate_averror(ENOMEM))
                }
                if lendsPictures { return }
                frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
                frame.pointee.width = Int32(width)
                frame.pointee.height = Int32(height)
                try check(av_frame_get_buffer(frame, 0), "allocate a frame", path: name)
                return
            case .failure(let reason):
                failures.append("\(name): \(reason)")
            }
        }
        throw MediaError(
            "open a video encoder", path: codecs.joined(separator: ","),
            message: failures.isEmpty ? "no encoder to try" : failures.joined(separator: "; "))
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    private static func open(
        _ name: String, width: Int, height: Int, fps: FrameRate, color: ColorTags, bitRate: Int?, proxy: Bool
    ) -> Result<(UnsafeMutablePointer<AVCodecContext>, String?, HardwareFrames?), OpenFailure> {
        guard let codec = avcodec_find_encoder_by_name(name) else { return .failure(OpenFailure("not in this libavcodec")) }
        var hardware: HardwareFrames?
        if let kind = HardwareFrames.Kind(encoder: name) {
            do {
                hardware = try HardwareFrames(kind, width: width, height: height)
            } catch {
                return .failure(OpenFailure(error.reason))
            }
        }
        guard let context = avcodec_alloc_context3(codec) else { return .failure(OpenFailure("out of memory")) }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: Int32(fps.seconds), den: Int32(fps.frames))
        context.pointee.framerate = AVRational(num: Int32(fps.frames), den: Int32(fps.seconds))
        context.pointee.gop_size = Int32(fps.nominal)
        context.pointee.max_b_frames = 0
        color.apply(to: context)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        hardware?.attach(to: context)
        if let bitRate { context.pointee.bit_rate = Int64(bitRate) }

        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        var preset: String?
        switch name {
        case "libx264":
            // veryfast up to 720p30's pixel rate; ultrafast above, to keep up on small machines, and for proxies.
            preset = !proxy && Int64(width * height) * fps.nominal <= 1280 * 720 * 30 ? "veryfast" : "ultrafast"
            av_dict_set(&options, "tune", "zerolatency", 0)
            // A forced keyframe (a take's first frame) must be an IDR frame.
            av_dict_set(&options, "forced-idr", "1", 0)
            if proxy {
                av_dict_set(&options, "x264-params", "keyint=infinite:scenecut=0", 0)
                context.pointee.thread_count = 1
                // The proxy's bit rate is its ceiling: a constant quality under a one-second
                // buffer of that rate, so a simple picture's proxy stays small.
                if let bitRate {
                    context.pointee.bit_rate = 0
                    context.pointee.rc_max_rate = Int64(bitRate)
                    context.pointee.rc_buffer_size = Int32(clamping: bitRate)
                    av_dict_set(&options, "crf", "23", 0)
                }
            }
        case "libx265":
            preset = "ultrafast"
            av_dict_set(&options, "tune", "zerolatency", 0)
            av_dict_set(&options, "forced-idr", "1", 0)
            av_dict_set(&options, "x265-params", "log-level=error", 0)
        case "hevc_nvenc", "h264_nvenc":
            preset = "p1"
            av_dict_set(&options, "tune", "ull", 0)
            av_dict_set(&options, "zerolatency", "1", 0)
            av_dict_set(&options, "forced-idr", "1", 0)
        case "hevc_qsv", "h264_qsv":
            // A forced keyframe is an IDR frame, as it is on VAAPI by default.
            av_dict_set(&options, "forced_idr", "1", 0)
        default:
            break
        }
        if let preset { av_dict_set(&options, "preset", preset, 0) }
        let status = withSignalsBlocked { avcodec_open2(context, codec, &options) }
        if status < 0 {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freed)
            return .failure(OpenFailure(MediaError.message(for: status)))
        }
        // V4L2 M2M encoders give none: their parameter sets come with their first keyframe (H.264's are read there).
        if context.pointee.extradata_size <= 0 && name != "h264_v4l2m2m" {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freed)
            return .failure(OpenFailure("no global header (extradata) for MP4"))
        }
        return .success((context, preset, hardware))
    }

    private struct OpenFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Encodes one frame with presentation time `pts` (in frames, the time base
    /// being 1/fps) and returns the packets the encoder had ready. `keyframe`
    /// forces an IDR frame, where a take starts.
    public func encode(_ frame: VideoFrame, pts: Int64, keyframe: Bool = false) throws(MediaError) -> [EncodedPacket] {
        guard let avFrame = self.frame else { return [] }
        guard frame.width == parameters.width, frame.height == parameters.height else {
            throw MediaError(
                "encode a frame", path: codecName,
                message: "the frame is \(frame.width)x\(frame.height), the encoder \(parameters.width)x\(parameters.height)")
        }
        guard !flushed else { throw MediaError("encode a frame", path: codecName, message: "the encoder was flushed") }
        // The encoder holds its own reference to a lent picture for as long as it reads it.
        defer { if lendsPictures { av_frame_unref(avFrame) } }
        if lendsPictures {
            try frame.lend(to: avFrame)
        } else {
            try check(av_frame_make_writable(avFrame), "make the frame writable", path: codecName)
            VideoEncoder.fill(avFrame, with: frame)
        }
        avFrame.pointee.pts = pts
        avFrame.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let sent = try hardware?.frame(for: avFrame) ?? avFrame
        // Encoders may start threads on their first frames too.
        try check(withSignalsBlocked { avcodec_send_frame(context, sent) }, "encode a frame", path: codecName)
        return try receive()
    }

    /// Drains the encoder at the end of a take: the packets it still held.
    /// The encoder encodes nothing more afterwards.
    public func flush() -> [EncodedPacket] {
        guard !flushed else { return [] }
        flushed = true
        guard avcodec_send_frame(context, nil) >= 0 else { return [] }
        return (try? receive()) ?? []
    }

    private func receive() throws(MediaError) -> [EncodedPacket] {
        let packets = try receivePackets(from: context, into: packet, "encode a frame", path: codecName, duration: 1)
        guard parameterSetsInStream else { return packets }
        return try packets.map { packet throws(MediaError) in
            guard packet.isKeyframe else { return packet }
            if parameters.extradata.isEmpty, let found = try H264ParameterSets.extradata(in: packet.data) {
                parameters.extradata = found
            }
            var repeated = packet
            repeated.data = H264ParameterSets.prefixed(packet.data, with: parameters.extradata)
            return repeated
        }
    }

    /// Copies `frame`'s planes into an I420 AVFrame of its size, row by row.
    static func fill(_ avFrame: UnsafeMutablePointer<AVFrame>, with frame: VideoFrame) {
        copy(frame.y, rowBytes: frame.width, rows: frame.height, to: avFrame.pointee.data.0, stride: avFrame.pointee.linesize.0)
        copy(
            frame.u, rowBytes: frame.chromaWidth, rows: frame.chromaHeight, to: avFrame.pointee.data.1,
            stride: avFrame.pointee.linesize.1)
        copy(
            frame.v, rowBytes: frame.chromaWidth, rows: frame.chromaHeight, to: avFrame.pointee.data.2,
            stride: avFrame.pointee.linesize.2)
    }

    private static func copy(
        _ plane: [UInt8], rowBytes: Int, rows: Int, to destination: UnsafeMutablePointer<UInt8>?, stride: Int32
    ) {
        guard let destination else { return }
        plane.withUnsafeBufferPointer { source in
            for row in 0..<rows {
                (destination + row * Int(stride)).update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
            }
        }
    }
}

extension VideoEncoder {
    /// How `encoder` (a libavcodec encoder's name, or a codec's) encodes
    /// `frames` of the test pattern at this size: frames per second counting
    /// encoding time only, and the CPU time it took (the process's, its
    /// threads' included) per second of video at `fps`, in cores; or why it
    /// cannot open or encode.
    public static func measure(encoder: String, width: Int, height: Int, fps: Int, frames: Int) -> Result<
        (framesPerSecond: Double, cpu: Double), MediaError
    > {
        guard frames > 0, fps > 0 else {
            return .failure(MediaError("measure an encoder", path: encoder, message: "no frames to encode"))
        }
        let opened = Result { () throws(MediaError) in
            try VideoEncoder(codecs: [encoder], width: width, height: height, fps: FrameRate(fps))
        }
        guard case .success(let video) = opened else { return opened.map { _ in (0, 0) } }
        let pattern = TestPattern(width: width, height: height)
        let pictures = (0..<min(frames, 8)).map {
            pattern.frame(index: $0, time: Instant(microseconds: Int64($0) * 1_000_000 / Int64(fps)))
        }
        var busy: UInt64 = 0
        let cpuBefore = ProcessInfoReading.cpuMicroseconds
        for index in 0..<frames {
            let start = MonotonicClock.nanoseconds()
            do {
                _ = try video.encode(pictures[index % pictures.count], pts: Int64(index))
            } catch {
                return .failure(error)
            }
            busy += MonotonicClock.nanoseconds() - start
        }
        let start = MonotonicClock.nanoseconds()
        _ = video.flush()
        busy += MonotonicClock.nanoseconds() - start
        let cpu = Double(ProcessInfoReading.cpuMicroseconds - cpuBefore) / 1e6 / Double(frames) * Double(fps)
        return .success((busy == 0 ? 0 : Double(frames) / (Double(busy) / 1e9), cpu))
    }
}

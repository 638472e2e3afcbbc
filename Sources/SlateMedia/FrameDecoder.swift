import CAV
import SlateCore
import SlateSystem

/// Decodes compressed video (any codec libavcodec can decode: H.264, HEVC,
/// MJPEG, ...) into I420 `VideoFrame`s at their decoded size, converted with
/// libswscale when the decoder gives another pixel format.
public final class FrameDecoder {
    /// One decoded picture and its presentation time in the packets' time base
    /// (nil when the stream gives none).
    public struct Picture: Sendable {
        public var frame: VideoFrame
        public var pts: Int64?
    }

    /// libav's codec name, e.g. `h264`, `hevc` or `mjpeg`.
    public let codec: String
    /// Where the packets come from (a file, a camera), as errors name it.
    public let source: String
    /// The unit of the packets' timestamps; the frames' `time` is in microseconds of it.
    public let timeBase: TimeBase
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var scaled: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var scalerInput: (width: Int32, height: Int32, format: Int32)?
    private var drained = false

    /// Opens libavcodec's decoder for `codec` with its global header
    /// (`extradata`: SPS/PPS for H.264, none for MJPEG). Errors name `source`,
    /// else the codec.
    public init(codec: String, extradata: [UInt8] = [], timeBase: TimeBase, source: String? = nil) throws(MediaError) {
        _ = LibAV.setUp
        self.codec = codec
        self.source = source ?? codec
        self.timeBase = timeBase
        guard let descriptor = avcodec_descriptor_get_by_name(codec),
            let decoder = avcodec_find_decoder(descriptor.pointee.id)
        else { throw MediaError("open a decoder", path: self.source, message: "libavcodec has no decoder for '\(codec)'") }
        context = avcodec_alloc_context3(decoder)
        decoded = av_frame_alloc()
        scaled = av_frame_alloc()
        packet = av_packet_alloc()
        guard let context, decoded != nil, scaled != nil, packet != nil else {
            throw MediaError("open a decoder", path: self.source, code: slate_averror(ENOMEM))
        }
        if !extradata.isEmpty {
            context.pointee.extradata = try libavExtradata(extradata, "open a decoder", path: self.source)
            context.pointee.extradata_size = Int32(extradata.count)
        }
        context.pointee.pkt_timebase = timeBase.rational
        // Decoder threads block every signal, as the encoder's do.
        try check(withSignalsBlocked { avcodec_open2(context, decoder, nil) }, "open a decoder", path: self.source)
    }

    deinit {
        sws_freeContext(scaler)
        avcodec_free_context(&context)
        av_frame_free(&decoded)
        av_frame_free(&scaled)
        av_packet_free(&packet)
    }

    /// Decodes one packet and returns the pictures the decoder had ready, in presentation order.
    public func decode(_ encoded: EncodedPacket) throws(MediaError) -> [Picture] {
        guard let context, let packet, !drained else {
            throw MediaError("decode a frame", path: source, message: "the decoder was flushed")
        }
        try encoded.fill(packet, "decode a frame", path: source)
        defer { av_packet_unref(packet) }
        try check(withSignalsBlocked { avcodec_send_packet(context, packet) }, "decode a frame", path: source)
        return try receive()
    }

    /// Drains the decoder: the pictures it still held. It decodes nothing more afterwards.
    public func flush() throws(MediaError) -> [Picture] {
        guard let context, !drained else { return [] }
        drained = true
        try check(avcodec_send_packet(context, nil), "decode a frame", path: source)
        return try receive()
    }

    private func receive() throws(MediaError) -> [Picture] {
        guard let context, let decoded else { return [] }
        var pictures: [Picture] = []
        while true {
            let status = avcodec_receive_frame(context, decoded)
            if status == slate_averror(EAGAIN) || status == slate_averror_eof() { return pictures }
            try check(status, "decode a frame", path: source)
            defer { av_frame_unref(decoded) }
            let none = slate_av_nopts_value()
            let pts = [decoded.pointee.best_effort_timestamp, decoded.pointee.pts].first { $0 != none }
            let frame = try convert(decoded, time: Instant(microseconds: pts.map(timeBase.microseconds) ?? 0))
            pictures.append(Picture(frame: frame, pts: pts))
        }
    }

    /// The decoded picture as I420: copied as it is when it already is, else
    /// through libswscale.
    private func convert(_ picture: UnsafeMutablePointer<AVFrame>, time: Instant) throws(MediaError) -> VideoFrame {
        let width = Int(picture.pointee.width), height = Int(picture.pointee.height)
        if picture.pointee.format == AV_PIX_FMT_YUV420P.rawValue {
            return FrameDecoder.frame(of: picture, width: width, height: height, time: time)
        }
        guard let scaled else { throw MediaError("convert a frame", path: source, code: slate_averror(ENOMEM)) }
        let shape = (width: picture.pointee.width, height: picture.pointee.height, format: picture.pointee.format)
        if scalerInput.map({ $0 != shape }) ?? true {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                shape.width, shape.height, AVPixelFormat(rawValue: shape.format), shape.width, shape.height,
                AV_PIX_FMT_YUV420P, SWS_BILINEAR, nil, nil, nil)
            scalerInput = scaler == nil ? nil : shape
            guard scaler != nil else {
                throw MediaError(
                    "convert a frame", path: source,
                    message: "libswscale cannot convert \(width)x\(height) \(FrameDecoder.formatName(shape.format)) to yuv420p")
            }
            av_frame_unref(scaled)
            scaled.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            scaled.pointee.width = shape.width
            scaled.pointee.height = shape.height
            try check(av_frame_get_buffer(scaled, 0), "convert a frame", path: source)
        }
        let from = picture.pointee, to = scaled.pointee
        let sourcePlanes: [UnsafePointer<UInt8>?] = [
            UnsafePointer(from.data.0), UnsafePointer(from.data.1), UnsafePointer(from.data.2), UnsafePointer(from.data.3),
        ]
        let sourceStrides = [from.linesize.0, from.linesize.1, from.linesize.2, from.linesize.3]
        let targetPlanes = [to.data.0, to.data.1, to.data.2, to.data.3]
        let targetStrides = [to.linesize.0, to.linesize.1, to.linesize.2, to.linesize.3]
        let rows = sws_scale(scaler, sourcePlanes, sourceStrides, 0, from.height, targetPlanes, targetStrides)
        guard rows > 0 else { throw MediaError("convert a frame", path: source, code: rows < 0 ? rows : slate_averror(EINVAL)) }
        return FrameDecoder.frame(of: scaled, width: width, height: height, time: time)
    }

    /// An I420 AVFrame's planes, rows packed (`PixelConverter` reads its output so too).
    static func frame(of picture: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, time: Instant) -> VideoFrame {
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let data = picture.pointee.data, lines = picture.pointee.linesize
        return VideoFrame(
            width: width, height: height, y: plane(data.0, stride: lines.0, rowBytes: width, rows: height),
            u: plane(data.1, stride: lines.1, rowBytes: chromaWidth, rows: chromaHeight),
            v: plane(data.2, stride: lines.2, rowBytes: chromaWidth, rows: chromaHeight), time: time)
    }

    private static func plane(_ base: UnsafeMutablePointer<UInt8>?, stride: Int32, rowBytes: Int, rows: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 128, count: rowBytes * rows)
        guard let base else { return bytes }
        bytes.withUnsafeMutableBufferPointer { out in
            for row in 0..<rows { (out.baseAddress! + row * rowBytes).update(from: base + row * Int(stride), count: rowBytes) }
        }
        return bytes
    }

    private static func formatName(_ format: Int32) -> String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: format)).map { String(cString: $0) } ?? "format \(format)"
    }
}

import CAV
import SlateCore
import SlateSystem

/// Decodes a camera's compressed frames to I420 with libavcodec and libswscale:
/// MJPEG when pass-through is off, and the odd H.264 frame a pass-through take's
/// thumbnail needs. JPEG's full-range 4:2:2 or 4:2:0 becomes limited-range 4:2:0.
public final class MJPEGDecoder {
    /// libav's codec name, `mjpeg` unless told otherwise.
    public let codec: String
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private var scaled: (format: Int32, width: Int32, height: Int32)?

    public init(codec: String = "mjpeg") throws(MediaError) {
        _ = LibAV.setUp
        self.codec = codec
        guard let decoder = avcodec_find_decoder_by_name(codec) else {
            throw MediaError("open a decoder", path: codec, message: "libavcodec has no \(codec) decoder")
        }
        context = avcodec_alloc_context3(decoder)
        picture = av_frame_alloc()
        packet = av_packet_alloc()
        guard let context, picture != nil, packet != nil else {
            throw MediaError("open a decoder", path: codec, code: slate_averror(ENOMEM))
        }
        // One thread: frames come one at a time and must come out at once.
        context.pointee.thread_count = 1
        try check(avcodec_open2(context, decoder, nil), "open a decoder", path: codec)
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&picture)
        av_packet_free(&packet)
        sws_freeContext(scaler)
    }

    /// Decodes one frame; nil when the decoder needs more frames before it has a
    /// picture (an H.264 frame that is not a keyframe, sent first).
    public func decode(_ frame: CompressedFrame) throws(MediaError) -> VideoFrame? {
        guard let context, let picture, let packet else { return nil }
        try check(av_new_packet(packet, Int32(frame.data.count)), "decode a frame", path: codec)
        defer { av_packet_unref(packet) }
        if let data = packet.pointee.data, !frame.data.isEmpty {
            frame.data.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: $0.count) }
        }
        if frame.isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        try check(avcodec_send_packet(context, packet), "decode a frame", path: codec)
        let status = avcodec_receive_frame(context, picture)
        if status == slate_averror(EAGAIN) { return nil }
        try check(status, "decode a frame", path: codec)
        defer { av_frame_unref(picture) }
        return try convert(picture, time: frame.time)
    }

    private func convert(_ picture: UnsafeMutablePointer<AVFrame>, time: Instant) throws(MediaError) -> VideoFrame {
        let width = Int(picture.pointee.width) & ~1, height = Int(picture.pointee.height) & ~1
        let format = picture.pointee.format
        if scaled.map({ $0 != (format, Int32(width), Int32(height)) }) ?? true {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                Int32(width), Int32(height), AVPixelFormat(format), Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
                SWS_POINT, nil, nil, nil)
            scaled = (format, Int32(width), Int32(height))
        }
        guard let scaler else {
            throw MediaError("convert a decoded frame", path: codec, message: "libswscale cannot convert format \(format)")
        }
        var output = VideoFrame(width: width, height: height, time: time)
        let chromaWidth = output.chromaWidth
        let strides: [Int32] = [Int32(width), Int32(chromaWidth), Int32(chromaWidth), 0]
        let source: [UnsafePointer<UInt8>?] = [
            UnsafePointer(picture.pointee.data.0), UnsafePointer(picture.pointee.data.1),
            UnsafePointer(picture.pointee.data.2), nil,
        ]
        let sourceStrides: [Int32] = [
            picture.pointee.linesize.0, picture.pointee.linesize.1, picture.pointee.linesize.2, 0,
        ]
        output.y.withUnsafeMutableBufferPointer { y in
            output.u.withUnsafeMutableBufferPointer { u in
                output.v.withUnsafeMutableBufferPointer { v in
                    let destination: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress, nil]
                    _ = sws_scale(scaler, source, sourceStrides, 0, Int32(height), destination, strides)
                }
            }
        }
        return output
    }
}

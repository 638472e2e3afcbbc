import CAV
import SlateCore
import SlateSystem

/// A take's thumbnail, or a picture of the framing preview: one frame, scaled
/// down with libswscale and encoded with libavcodec's MJPEG encoder.
public enum JPEGThumbnail {
    /// Thumbnails are at most this wide; smaller frames keep their size.
    public static let maximumWidth = 320

    /// The prefix of the temporary files a thumbnail `name` is written to before
    /// it is renamed into place; recovery removes those a crash left.
    public static func partialPrefix(for name: String) -> String { "." + name + ".partial-" }

    /// Writes `frame` as the JPEG `name` in `folder`, with `mode` (through a file
    /// of its own renamed into place), turned `rotation` degrees clockwise (90, 180, 270)
    /// as players show a take whose display matrix says so.
    public static func write(
        _ frame: VideoFrame, named name: String, in folder: Folder, mode: mode_t, rotation: Int = 0
    ) throws(MediaError) {
        _ = LibAV.setUp
        let frame = try turned(frame, rotation)
        let (width, height) = size(width: frame.width, height: frame.height)
        let bytes = try jpeg(frame, width: width, height: height, path: folder.file(name))
        do {
            try FileWriting.replace(name, in: folder, with: bytes, mode: mode, temporaryPrefix: partialPrefix(for: name))
        } catch {
            throw MediaError("write the thumbnail", path: error.subject ?? folder.file(name), message: error.errno.description)
        }
    }

    /// `frame` turned `degrees` clockwise by libavfilter's `transpose` (or flips, for 180).
    static func turned(_ frame: VideoFrame, _ degrees: Int) throws(MediaError) -> VideoFrame {
        let chain: String
        switch degrees {
        case 90: chain = "transpose=clock"
        case 180: chain = "hflip,vflip"
        case 270: chain = "transpose=cclock"
        default: return frame
        }
        return try FilterGraph(width: frame.width, height: frame.height, chain: chain).apply(frame)
    }

    /// `frame` as a JPEG at most `maximumWidth` wide (the framing preview's pictures).
    public static func picture(_ frame: VideoFrame, maximumWidth: Int) throws(MediaError) -> [UInt8] {
        _ = LibAV.setUp
        let (width, height) = size(width: frame.width, height: frame.height, maximumWidth: maximumWidth)
        return try jpeg(frame, width: width, height: height, path: "the framing preview")
    }

    /// The thumbnail's size for a frame: at most `maximumWidth` wide, same aspect, even sides.
    public static func size(width: Int, height: Int, maximumWidth: Int = maximumWidth) -> (width: Int, height: Int) {
        let w = max(2, min(maximumWidth, width) & ~1)
        let h = max(2, ((height * w + width / 2) / width) & ~1)
        return (w, h)
    }

    /// `frame` scaled to `width` x `height` and encoded as a JPEG; errors name `path`.
    static func jpeg(_ frame: VideoFrame, width: Int, height: Int, path: String) throws(MediaError) -> [UInt8] {
        guard
            let scaler = sws_getContext(
                Int32(frame.width), Int32(frame.height), AV_PIX_FMT_YUV420P, Int32(width), Int32(height),
                AV_PIX_FMT_YUVJ420P, SWS_AREA, nil, nil, nil)
        else { throw MediaError("scale the thumbnail", path: path, message: "libswscale cannot convert this size") }
        defer { sws_freeContext(scaler) }
        var picture = av_frame_alloc()
        defer { av_frame_free(&picture) }
        guard let picture else { throw MediaError("scale the thumbnail", path: path, code: slate_averror(ENOMEM)) }
        picture.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        picture.pointee.width = Int32(width)
        picture.pointee.height = Int32(height)
        try check(av_frame_get_buffer(picture, 0), "scale the thumbnail", path: path)
        let data = picture.pointee.data, lines = picture.pointee.linesize
        let destination: [UnsafeMutablePointer<UInt8>?] = [data.0, data.1, data.2, nil]
        let destinationStrides: [Int32] = [lines.0, lines.1, lines.2, 0]
        let sourceStrides: [Int32] = [Int32(frame.width), Int32(frame.chromaWidth), Int32(frame.chromaWidth), 0]
        frame.y.withUnsafeBufferPointer { y in
            frame.u.withUnsafeBufferPointer { u in
                frame.v.withUnsafeBufferPointer { v in
                    let source: [UnsafePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress, nil]
                    _ = sws_scale(scaler, source, sourceStrides, 0, Int32(frame.height), destination, destinationStrides)
                }
            }
        }

        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError("encode the thumbnail", path: path, message: "libavcodec has no MJPEG encoder")
        }
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let context, let packet else { throw MediaError("encode the thumbnail", path: path, code: slate_averror(ENOMEM)) }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 25)
        // Fixed quality: qscale 3 of 1 (best) to 31.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = 3 * FF_QP2LAMBDA
        picture.pointee.quality = context.pointee.global_quality
        picture.pointee.pts = 0
        try check(avcodec_open2(context, codec, nil), "open the MJPEG encoder", path: path)
        try check(avcodec_send_frame(context, picture), "encode the thumbnail", path: path)
        try check(avcodec_receive_packet(context, packet), "encode the thumbnail", path: path)
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }
}

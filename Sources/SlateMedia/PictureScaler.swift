import CAV
import SlateCore

/// Scales I420 pictures to one smaller I420 size with libswscale (bilinear),
/// for proxies. The source is copied into a padded frame first: libswscale
/// may read past a row's end.
final class PictureScaler {
    let width: Int
    let height: Int
    private var scaler: OpaquePointer?
    private var source = av_frame_alloc()
    private var output = av_frame_alloc()
    private var sourceSize: (width: Int, height: Int)?

    /// A scaler to `width`x`height` (even, positive).
    init(width: Int, height: Int) throws(MediaError) {
        self.width = width
        self.height = height
        guard let output, source != nil else {
            throw MediaError("scale a picture", path: "libswscale", code: slate_averror(ENOMEM))
        }
        output.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        output.pointee.width = Int32(width)
        output.pointee.height = Int32(height)
        try check(av_frame_get_buffer(output, 0), "scale a picture", path: "libswscale")
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&source)
        av_frame_free(&output)
    }

    /// `picture` at this scaler's size, captured when it was.
    func scale(_ picture: VideoFrame) throws(MediaError) -> VideoFrame {
        try prepare(for: picture)
        guard let source, let output else { throw MediaError("scale a picture", path: "libswscale", code: slate_averror(ENOMEM)) }
        VideoEncoder.fill(source, with: picture)
        let from = source.pointee, to = output.pointee
        let sources = [from.data.0, from.data.1, from.data.2, nil].map { $0.map { UnsafePointer<UInt8>($0) } }
        let status = sws_scale(
            scaler, sources, [from.linesize.0, from.linesize.1, from.linesize.2, 0], 0, Int32(picture.height),
            [to.data.0, to.data.1, to.data.2, nil], [to.linesize.0, to.linesize.1, to.linesize.2, 0])
        guard status == height else {
            throw MediaError("scale a picture", path: "libswscale", message: "libswscale wrote \(status) of \(height) rows")
        }
        return FrameDecoder.frame(of: output, width: width, height: height, time: picture.time)
    }

    /// A context and a source frame for pictures of `picture`'s size.
    private func prepare(for picture: VideoFrame) throws(MediaError) {
        if let sourceSize, sourceSize == (picture.width, picture.height) { return }
        sws_freeContext(scaler)
        sourceSize = nil
        scaler = sws_getContext(
            Int32(picture.width), Int32(picture.height), AV_PIX_FMT_YUV420P, Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
            SWS_BILINEAR, nil, nil, nil)
        guard scaler != nil, let source else {
            throw MediaError(
                "scale a picture", path: "libswscale",
                message: "no context from \(picture.width)x\(picture.height) to \(width)x\(height)")
        }
        av_frame_unref(source)
        source.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        source.pointee.width = Int32(picture.width)
        source.pointee.height = Int32(picture.height)
        try check(av_frame_get_buffer(source, 0), "scale a picture", path: "libswscale")
        sourceSize = (picture.width, picture.height)
    }
}

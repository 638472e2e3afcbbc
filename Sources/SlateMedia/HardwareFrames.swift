import CAV
import SlateCore

/// What a hardware encoder needs from libav before it opens, and how pictures
/// reach it. VAAPI and QSV encode surfaces in the device's memory: a device
/// context, a frames context of NV12 surfaces, and each I420 picture
/// converted to NV12 (libswscale) and uploaded into one. NVENC reads pictures
/// from memory but works in the CUDA device context it is given. V4L2 M2M
/// needs none: the kernel driver is the device (`VideoEncoder` takes its
/// parameter sets from its first keyframe).
final class HardwareFrames {
    /// The kind of device an encoder runs on, by its libavcodec name.
    enum Kind: String {
        case vaapi = "VAAPI"
        case qsv = "QSV"
        case cuda = "CUDA"

        /// `h264_vaapi` → VAAPI, `hevc_qsv` → QSV, `h264_nvenc` → CUDA; nil for others.
        init?(encoder name: String) {
            if name.hasSuffix("_vaapi") {
                self = .vaapi
            } else if name.hasSuffix("_qsv") {
                self = .qsv
            } else if name.hasSuffix("_nvenc") {
                self = .cuda
            } else {
                return nil
            }
        }

        var deviceType: AVHWDeviceType {
            switch self {
            case .vaapi: AV_HWDEVICE_TYPE_VAAPI
            case .qsv: AV_HWDEVICE_TYPE_QSV
            case .cuda: AV_HWDEVICE_TYPE_CUDA
            }
        }

        /// The surfaces the encoder takes; nil when it reads pictures from memory.
        var surfaceFormat: AVPixelFormat? {
            switch self {
            case .vaapi: AV_PIX_FMT_VAAPI
            case .qsv: AV_PIX_FMT_QSV
            case .cuda: nil
            }
        }
    }

    /// Surfaces in a frames context's pool (QSV needs a fixed pool).
    static let poolSize: Int32 = 16

    let kind: Kind
    private var device: UnsafeMutablePointer<AVBufferRef>?
    private var frames: UnsafeMutablePointer<AVBufferRef>?
    private var nv12 = av_frame_alloc()
    private var surface = av_frame_alloc()
    private var scaler: OpaquePointer?

    /// Opens the device (the system's default: `/dev/dri/renderD128` for
    /// VAAPI, the first GPU for CUDA) and, for encoders that take surfaces, a
    /// pool of `width`x`height` NV12 surfaces; the error says which failed,
    /// with libav's reason.
    init(_ kind: Kind, width: Int, height: Int) throws(MediaError) {
        self.kind = kind
        let device = "a \(kind.rawValue) device"
        try check(av_hwdevice_ctx_create(&self.device, kind.deviceType, nil, nil, 0), "open \(device)", path: "")
        guard let surfaceFormat = kind.surfaceFormat else { return }
        frames = av_hwframe_ctx_alloc(self.device)
        guard let frames, let nv12, surface != nil else {
            throw MediaError("allocate \(kind.rawValue) surfaces", path: "", code: slate_averror(ENOMEM))
        }
        let context = UnsafeMutableRawPointer(frames.pointee.data).assumingMemoryBound(to: AVHWFramesContext.self)
        context.pointee.format = surfaceFormat
        context.pointee.sw_format = AV_PIX_FMT_NV12
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.initial_pool_size = Self.poolSize
        try check(av_hwframe_ctx_init(frames), "make \(kind.rawValue) surfaces of \(width)x\(height)", path: "")
        nv12.pointee.format = AV_PIX_FMT_NV12.rawValue
        nv12.pointee.width = Int32(width)
        nv12.pointee.height = Int32(height)
        try check(av_frame_get_buffer(nv12, 0), "allocate a picture", path: "")
        scaler = sws_getContext(
            Int32(width), Int32(height), AV_PIX_FMT_YUV420P, Int32(width), Int32(height), AV_PIX_FMT_NV12, SWS_POINT, nil,
            nil, nil)
        guard scaler != nil else {
            throw MediaError("convert pictures to NV12", path: "libswscale", message: "no context for \(width)x\(height)")
        }
    }

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&nv12)
        av_frame_free(&surface)
        av_buffer_unref(&frames)
        av_buffer_unref(&device)
    }

    /// Gives an encoder's context the device or surfaces it encodes from, before it opens.
    func attach(to context: UnsafeMutablePointer<AVCodecContext>) {
        if let frames, let surfaceFormat = kind.surfaceFormat {
            context.pointee.hw_frames_ctx = av_buffer_ref(frames)
            context.pointee.pix_fmt = surfaceFormat
        } else {
            context.pointee.hw_device_ctx = av_buffer_ref(device)
        }
    }

    /// The frame to send the encoder for an I420 `picture`: for an encoder
    /// that takes surfaces, the picture as NV12 uploaded into one (its pts
    /// and picture type kept); else the picture itself.
    func frame(for picture: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> UnsafeMutablePointer<AVFrame> {
        guard let frames, let nv12, let surface else { return picture }
        try check(av_frame_make_writable(nv12), "make the frame writable", path: "")
        let from = picture.pointee, to = nv12.pointee
        let sources = [from.data.0, from.data.1, from.data.2, nil].map { $0.map { UnsafePointer<UInt8>($0) } }
        sws_scale(
            scaler, sources, [from.linesize.0, from.linesize.1, from.linesize.2, 0], 0, from.height,
            [to.data.0, to.data.1, nil, nil], [to.linesize.0, to.linesize.1, 0, 0])
        av_frame_unref(surface)
        try check(av_hwframe_get_buffer(frames, surface, 0), "take a \(kind.rawValue) surface", path: "")
        try check(av_hwframe_transfer_data(surface, nv12, 0), "upload a picture to a \(kind.rawValue) surface", path: "")
        surface.pointee.pts = from.pts
        surface.pointee.pict_type = from.pict_type
        return surface
    }
}

import CAV
import SlateCore

/// Camera pictures in the raw formats cameras pack (`FourCC.encodable`: YUYV,
/// NV12, YU12, RGB3, GREY, ...) converted to I420, the encoder's input, by
/// libswscale. One converter keeps the context of the last format and size.
public final class PixelConverter {
    private var scaler: OpaquePointer?
    private var shape: (format: FourCC, width: Int, height: Int)?
    /// libswscale's output, padded and aligned as it needs (it writes past a row's end).
    private var output = av_frame_alloc()
    /// libswscale may read past a source row's end: a source is copied with this much more.
    private static let sourcePadding = 64

    public init() {}

    deinit {
        sws_freeContext(scaler)
        av_frame_free(&output)
    }

    /// How libswscale reads a format: its pixel format, and whether the chroma
    /// comes out swapped (a format libav has only in the other order: VYUY read
    /// as UYVY).
    public static func layout(_ format: FourCC) -> (pixelFormat: AVPixelFormat, swapsChroma: Bool)? {
        switch format {
        case .yuyv: (AV_PIX_FMT_YUYV422, false)
        case .uyvy: (AV_PIX_FMT_UYVY422, false)
        case .yvyu: (AV_PIX_FMT_YVYU422, false)
        case .vyuy: (AV_PIX_FMT_UYVY422, true)
        case .nv12: (AV_PIX_FMT_NV12, false)
        case .nv21: (AV_PIX_FMT_NV21, false)
        case .yu12, .yv12: (AV_PIX_FMT_YUV420P, false)
        case .yuv422p: (AV_PIX_FMT_YUV422P, false)
        case .rgb24: (AV_PIX_FMT_RGB24, false)
        case .bgr24: (AV_PIX_FMT_BGR24, false)
        case .grey: (AV_PIX_FMT_GRAY8, false)
        default: nil
        }
    }

    /// Whether this libswscale reads `format`.
    public static func reads(_ format: FourCC) -> Bool {
        layout(format).map { sws_isSupportedInput($0.pixelFormat) > 0 } ?? false
    }

    /// Where each plane of a `height`-row picture starts in a V4L2 buffer
    /// whose first plane's rows are `line` bytes apart, with its row length,
    /// and how many bytes the buffer needs.
    static func planes(_ format: FourCC, width: Int, height: Int, line: Int) -> (
        planes: [(offset: Int, stride: Int)], needed: Int, rowBytes: Int
    )? {
        let luma = line * height
        switch format {
        case .yuyv, .uyvy, .yvyu, .vyuy: return ([(0, line)], line * (height - 1) + width * 2, width * 2)
        case .rgb24, .bgr24: return ([(0, line)], line * (height - 1) + width * 3, width * 3)
        case .grey: return ([(0, line)], line * (height - 1) + width, width)
        case .nv12, .nv21: return ([(0, line), (luma, line)], luma + line * height / 2, width)
        case .yu12: return ([(0, line), (luma, line / 2), (luma + line / 2 * height / 2, line / 2)], luma * 3 / 2, width)
        // YV12 holds V before U.
        case .yv12: return ([(0, line), (luma + line / 2 * height / 2, line / 2), (luma, line / 2)], luma * 3 / 2, width)
        case .yuv422p: return ([(0, line), (luma, line / 2), (luma + line / 2 * height, line / 2)], luma * 2, width)
        default: return nil
        }
    }

    /// `frame` in I420; nil for a format libswscale is not given here, an odd
    /// size, rows shorter than the picture or a buffer too short for it.
    public func convert(_ frame: PackedFrame) -> VideoFrame? {
        let (width, height) = (frame.width, frame.height)
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0, Self.reads(frame.format),
            let layout = Self.layout(frame.format),
            let (planes, needed, rowBytes) = Self.planes(frame.format, width: width, height: height, line: frame.bytesPerLine),
            frame.bytesPerLine >= rowBytes, frame.bytes.count >= needed, prepare(frame.format, width, height, layout.pixelFormat)
        else { return nil }
        guard let output else { return nil }
        let padded = frame.bytes + [UInt8](repeating: 0, count: Self.sourcePadding)
        let converted = padded.withUnsafeBufferPointer { bytes -> Bool in
            var sources = [UnsafePointer<UInt8>?](repeating: nil, count: 4)
            var sourceStrides = [Int32](repeating: 0, count: 4)
            for (index, plane) in planes.enumerated() {
                sources[index] = bytes.baseAddress.map { $0 + plane.offset }
                sourceStrides[index] = Int32(plane.stride)
            }
            let to = output.pointee
            let targets = [to.data.0, to.data.1, to.data.2, to.data.3]
            let targetStrides = [to.linesize.0, to.linesize.1, to.linesize.2, to.linesize.3]
            return sws_scale(scaler, sources, sourceStrides, 0, Int32(height), targets, targetStrides) == height
        }
        guard converted else { return nil }
        var picture = FrameDecoder.frame(of: output, width: width, height: height, time: frame.time)
        if layout.swapsChroma { swap(&picture.u, &picture.v) }
        return picture
    }

    /// A capture with a packed picture converted (nil when it cannot be); others as they are.
    public func unpacked(_ capture: CameraFrame) -> CameraFrame? {
        guard case .packed(let packed) = capture else { return capture }
        return convert(packed).map(CameraFrame.raw)
    }

    /// Keeps a context for `format` at this size, and an output frame of the
    /// size; false when libswscale has no context or the frame cannot be had.
    private func prepare(_ format: FourCC, _ width: Int, _ height: Int, _ pixelFormat: AVPixelFormat) -> Bool {
        if let shape, shape == (format, width, height), scaler != nil { return true }
        sws_freeContext(scaler)
        shape = nil
        scaler = sws_getContext(
            Int32(width), Int32(height), pixelFormat, Int32(width), Int32(height), AV_PIX_FMT_YUV420P,
            SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP, nil, nil, nil)
        guard scaler != nil, let output else { return false }
        av_frame_unref(output)
        output.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        output.pointee.width = Int32(width)
        output.pointee.height = Int32(height)
        guard av_frame_get_buffer(output, 0) >= 0 else { return false }
        shape = (format, width, height)
        return true
    }
}

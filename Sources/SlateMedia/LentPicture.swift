import CAV
import SlateCore

/// Holds a picture for as long as libav refers to one of its planes: each
/// plane's `AVBufferRef` keeps one reference to it, released by libav when it
/// lets go of that plane.
private final class LentPicture {
    let picture: VideoFrame

    init(_ picture: VideoFrame) { self.picture = picture }

    /// A read-only reference-counted libav buffer over `plane`, one of this
    /// picture's arrays; nil when libav has no memory for it.
    ///
    /// The pointer outlives `withUnsafeBufferPointer`'s closure. That holds
    /// for a native array (every array on Linux): its elements live in its
    /// storage object, which this picture keeps, unchanged, until the buffer
    /// is freed.
    func buffer(_ plane: [UInt8]) -> UnsafeMutablePointer<AVBufferRef>? {
        let base = plane.withUnsafeBufferPointer { UnsafeMutablePointer(mutating: $0.baseAddress) }
        let opaque = Unmanaged.passRetained(self).toOpaque()
        let buffer = av_buffer_create(
            base, plane.count, { opaque, _ in opaque.map { Unmanaged<LentPicture>.fromOpaque($0).release() } }, opaque,
            Int32(AV_BUFFER_FLAG_READONLY))
        if buffer == nil { Unmanaged<LentPicture>.fromOpaque(opaque).release() }
        return buffer
    }
}

extension VideoFrame {
    /// Makes `frame` an I420 AVFrame whose planes are this picture's own
    /// arrays, read-only and reference-counted, without copying them.
    ///
    /// The arrays are held unchanged until libav frees the last reference to
    /// them, and a native Swift array's elements stay where they are while it
    /// is held and not mutated (a caller's later change to its own copy
    /// writes to new storage). Only for readers that stay within each plane's
    /// rows and take any alignment: the planes are packed, with no padding
    /// after the last row, and aligned to 16 bytes, not libav's 32 or 64.
    func lend(to frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        av_frame_unref(frame)
        let chroma = VideoFrame.chromaSize(width, height)
        guard width > 0, height > 0, y.count == width * height, u.count == chroma, v.count == chroma else {
            throw MediaError(
                "lend a picture to libav", path: "",
                message: "its planes hold \(y.count), \(u.count) and \(v.count) bytes, not those of \(width)x\(height)")
        }
        let held = LentPicture(self)
        frame.pointee.buf.0 = held.buffer(held.picture.y)
        frame.pointee.buf.1 = held.buffer(held.picture.u)
        frame.pointee.buf.2 = held.buffer(held.picture.v)
        guard let y = frame.pointee.buf.0, let u = frame.pointee.buf.1, let v = frame.pointee.buf.2 else {
            av_frame_unref(frame)
            throw MediaError("lend a picture to libav", path: "", code: slate_averror(ENOMEM))
        }
        frame.pointee.data = (y.pointee.data, u.pointee.data, v.pointee.data, nil, nil, nil, nil, nil)
        frame.pointee.linesize = (Int32(width), Int32(chromaWidth), Int32(chromaWidth), 0, 0, 0, 0, 0)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
    }
}

import CAV
import Foundation
import SlateCore
import Testing

@testable import SlateMedia

/// Pictures handed to libav without a copy: held while libav reads them,
/// let go when it is done, and never changed under it.
@Suite struct LentPictureTests {
    static func address(_ plane: [UInt8]) -> UnsafePointer<UInt8>? { plane.withUnsafeBufferPointer { $0.baseAddress } }

    @Test func aLentPictureIsReadWhereItIsAndHeldUntilLibavLetsGo() throws {
        var picture = VideoFrame(width: 64, height: 48, luma: 100, cb: 90, cr: 200, time: Instant(microseconds: 0))
        var frame = av_frame_alloc(), kept = av_frame_alloc()
        defer {
            av_frame_free(&frame)
            av_frame_free(&kept)
        }
        let lent = try #require(frame), copy = try #require(kept)
        try picture.lend(to: lent)
        #expect(UnsafePointer(lent.pointee.data.0) == Self.address(picture.y))
        #expect(UnsafePointer(lent.pointee.data.2) == Self.address(picture.v))
        #expect(lent.pointee.linesize.0 == 64 && lent.pointee.linesize.1 == 32 && lent.pointee.linesize.2 == 32)
        #expect(lent.pointee.width == 64 && lent.pointee.height == 48)
        #expect(lent.pointee.format == AV_PIX_FMT_YUV420P.rawValue)
        #expect(av_frame_is_writable(lent) == 0)

        // libav keeps a reference; the caller changes its picture: libav's is unchanged.
        #expect(av_frame_ref(copy, lent) == 0)
        av_frame_unref(lent)
        let lentAddress = Self.address(picture.y)
        picture.y[0] = 7
        #expect(Self.address(picture.y) != lentAddress)
        #expect(copy.pointee.data.0?[0] == 100 && copy.pointee.data.1?[0] == 90 && copy.pointee.data.2?[0] == 200)

        // Once libav lets go of every plane, the caller's array is its own again: changing it copies nothing.
        av_frame_unref(copy)
        try picture.lend(to: lent)
        av_frame_unref(lent)
        let ownAddress = Self.address(picture.y)
        picture.y[1] = 9
        #expect(Self.address(picture.y) == ownAddress)
    }

    @Test func planesThatDoNotMatchTheSizeAreRefused() throws {
        var picture = VideoFrame(width: 64, height: 48, time: Instant(microseconds: 0))
        picture.y.removeLast()
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let error = #expect(throws: MediaError.self) { try picture.lend(to: frame!) }
        #expect(error?.reason.contains("its planes hold 3071, 768 and 768 bytes, not those of 64x48") == true)
        #expect(frame?.pointee.buf.0 == nil)
    }

    static let hasLibx265 = (try? VideoEncoder(codecs: ["libx265"], width: 64, height: 64, fps: 30)) != nil

    /// The peak signal-to-noise ratio of `decoded` to `source`, in dB.
    static func psnr(_ decoded: [UInt8], _ source: [UInt8]) -> Double {
        let squares = zip(decoded, source).reduce(0) { $0 + (Int($1.0) - Int($1.1)) * (Int($1.0) - Int($1.1)) }
        let mean = Double(squares) / Double(source.count)
        return mean == 0 ? 99 : 10 * log10(255 * 255 / mean)
    }

    /// Each encoder reads the whole picture, every plane at its stride, at a
    /// width whose chroma rows are odd (683 bytes) and long enough for x264's
    /// vector copy, and lets go of it within `encode`: the caller's array,
    /// changed in place afterwards, is its own again.
    @Test(arguments: ["libx264", "libx265"])
    func anEncoderReadsTheWholePictureAndLetsGoOfItWithinEncode(_ name: String) throws {
        guard name != "libx265" || Self.hasLibx265 else { return }
        let width = 1366, height = 768, count = 6
        let encoder = try VideoEncoder(codecs: [name], width: width, height: height, fps: 30)
        let pattern = TestPattern(width: width, height: height)
        func source(_ index: Int) -> VideoFrame {
            pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
        }
        var packets: [EncodedPacket] = []
        for index in 0..<count {
            var picture = source(index)
            let address = Self.address(picture.y)
            packets += try encoder.encode(picture, pts: Int64(index), keyframe: index == 0)
            picture.y[0] ^= 0xFF
            #expect(Self.address(picture.y) == address, "frame \(index): libav still held the picture after encode")
        }
        packets += encoder.flush()
        let decoder = try FrameDecoder(
            codec: encoder.parameters.codec, extradata: encoder.parameters.extradata, timeBase: TimeBase(1, 30))
        var pictures: [FrameDecoder.Picture] = []
        for packet in packets { pictures += try decoder.decode(packet) }
        pictures += try decoder.flush()
        #expect(pictures.count == count)
        for (index, decoded) in pictures.enumerated() {
            let original = source(index)
            let planes = [
                ("Y", Self.psnr(decoded.frame.y, original.y)), ("U", Self.psnr(decoded.frame.u, original.u)),
                ("V", Self.psnr(decoded.frame.v, original.v)),
            ]
            for (plane, psnr) in planes {
                #expect(psnr >= 30, "frame \(index) \(plane): \(psnr) dB")
            }
        }
    }
}

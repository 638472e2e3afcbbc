import Foundation
import SlateCore
import SlateMedia
import SlateTestSupport
import Testing

@Suite struct FrameDecoderTests {
    /// A flat-colour JPEG (full-range yuvj420p, as MJPEG cameras send) as one packet.
    func jpegPacket(width: Int, height: Int, luma: UInt8, cb: UInt8, cr: UInt8) throws -> EncodedPacket {
        // A folder of its own: the suite's tests run at the same time.
        let folder = try MediaFiles.folder("frame-decoder-\(UUID().uuidString)")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/frame.jpg"
        let frame = VideoFrame(width: width, height: height, luma: luma, cb: cb, cr: cr, time: Instant(microseconds: 0))
        try JPEGThumbnail.write(frame, toPath: path)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return EncodedPacket(data: bytes, pts: 3, dts: 3, duration: 1, isKeyframe: true)
    }

    @Test func mjpegIsDecodedToLimitedRangeI420() throws {
        let decoder = try FrameDecoder(codec: "mjpeg", timeBase: TimeBase(1, 30))
        let pictures = try decoder.decode(jpegPacket(width: 64, height: 48, luma: 126, cb: 90, cr: 200)) + decoder.flush()
        #expect(pictures.count == 1)
        let picture = try #require(pictures.first)
        #expect(picture.pts == 3 && picture.frame.time == Instant(microseconds: 100_000))
        #expect(picture.frame.width == 64 && picture.frame.height == 48)
        #expect(picture.frame.y.allSatisfy { abs(Int($0) - 126) <= 2 })
        #expect(picture.frame.u.allSatisfy { abs(Int($0) - 90) <= 2 })
        #expect(picture.frame.v.allSatisfy { abs(Int($0) - 200) <= 2 })
    }

    @Test func anUnknownCodecIsAnError() {
        let error = #expect(throws: MediaError.self) { try FrameDecoder(codec: "no-such-codec", timeBase: TimeBase(1, 30)) }
        #expect(error?.reason == "cannot open a decoder: libavcodec has no decoder for 'no-such-codec'")
    }
}

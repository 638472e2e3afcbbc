import Testing

@testable import SlateCore

@Suite struct RawFrameConversionTests {
    func convert(_ bytes: [UInt8], _ format: FourCC, width: Int = 4, height: Int = 2, bytesPerLine: Int) -> VideoFrame? {
        bytes.withUnsafeBytes {
            RawFrameConversion.convert(
                $0, format: format, width: width, height: height, bytesPerLine: bytesPerLine, time: Instant(microseconds: 7))
        }
    }

    @Test func packedFormatsAverageChromaOverRowPairsAndSkipPadding() throws {
        // Two rows of 4 pixels, YUYV, 2 bytes of padding per row.
        let yuyv: [UInt8] = [10, 100, 11, 200, 12, 102, 13, 202, 0, 0, 20, 110, 21, 210, 22, 112, 23, 212, 0, 0]
        let frame = try #require(convert(yuyv, .yuyv, bytesPerLine: 10))
        #expect(frame.y == [10, 11, 12, 13, 20, 21, 22, 23])
        #expect(frame.u == [105, 107] && frame.v == [205, 207])
        #expect(frame.time == Instant(microseconds: 7))
        let uyvy: [UInt8] = [100, 10, 200, 11, 102, 12, 202, 13, 110, 20, 210, 21, 112, 22, 212, 23]
        let other = try #require(convert(uyvy, .uyvy, bytesPerLine: 8))
        #expect(other.y == frame.y && other.u == frame.u && other.v == frame.v)
    }

    @Test func planarFormats() throws {
        let luma: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(try #require(convert(luma + [50, 60, 51, 61], .nv12, bytesPerLine: 4)).u == [50, 51])
        #expect(try #require(convert(luma + [50, 60, 51, 61], .nv12, bytesPerLine: 4)).v == [60, 61])
        let yu12 = try #require(convert(luma + [50, 51, 60, 61], .yu12, bytesPerLine: 4))
        #expect(yu12.y == luma && yu12.u == [50, 51] && yu12.v == [60, 61])
        let yv12 = try #require(convert(luma + [60, 61, 50, 51], .yv12, bytesPerLine: 4))
        #expect(yv12.u == [50, 51] && yv12.v == [60, 61])
    }

    @Test func shortBuffersOddSizesAndOtherFormatsGiveNothing() {
        #expect(convert([1, 2, 3], .yuyv, bytesPerLine: 8) == nil)
        #expect(convert([UInt8](repeating: 0, count: 64), .yuyv, width: 3, height: 2, bytesPerLine: 8) == nil)
        #expect(convert([UInt8](repeating: 0, count: 64), .mjpeg, bytesPerLine: 8) == nil)
    }
}

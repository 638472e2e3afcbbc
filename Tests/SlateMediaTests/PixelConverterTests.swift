import SlateCore
import SlateMedia
import Testing

/// Every raw format a camera may pack, packed here from one picture and read
/// back through libswscale.
@Suite struct PixelConverterTests {
    static let width = 16, height = 8

    /// Luma distinct at every pixel; chroma that changes by column pair and
    /// not by row, so that 4:2:2 and 4:2:0 sources agree.
    static func luma(_ row: Int, _ column: Int) -> UInt8 { UInt8(20 + row * 16 + column) }
    static func blue(_ column: Int) -> UInt8 { UInt8(60 + 10 * (column / 2)) }
    static func red(_ column: Int) -> UInt8 { UInt8(200 - 10 * (column / 2)) }

    /// The picture packed as `format`, each row of the first plane `padding` bytes longer than it needs.
    static func packed(_ format: FourCC, padding: Int = 4) -> PackedFrame {
        let (width, height) = (Self.width, Self.height)
        var bytes: [UInt8] = []
        var line = width + padding
        func samples(_ row: Int, _ column: Int) -> (y: UInt8, u: UInt8, v: UInt8) {
            (luma(row, column), blue(column), red(column))
        }
        switch format {
        case .yuyv, .uyvy, .yvyu, .vyuy:
            line = width * 2 + padding
            for row in 0..<height {
                for pair in stride(from: 0, to: width, by: 2) {
                    let (y0, u, v) = samples(row, pair)
                    let y1 = luma(row, pair + 1)
                    switch format {
                    case .yuyv: bytes += [y0, u, y1, v]
                    case .uyvy: bytes += [u, y0, v, y1]
                    case .yvyu: bytes += [y0, v, y1, u]
                    default: bytes += [v, y0, u, y1]
                    }
                }
                bytes += [UInt8](repeating: 0, count: padding)
            }
        case .nv12, .nv21, .yu12, .yv12, .yuv422p:
            for row in 0..<height {
                bytes += (0..<width).map { luma(row, $0) } + [UInt8](repeating: 0, count: padding)
            }
            let chromaRows = format == .yuv422p ? height : height / 2
            let us = (0..<width / 2).map { blue($0 * 2) }, vs = (0..<width / 2).map { red($0 * 2) }
            switch format {
            case .nv12, .nv21:
                let swapped = format == .nv21
                let pairs = zip(us, vs).flatMap { swapped ? [$1, $0] : [$0, $1] }
                for _ in 0..<chromaRows { bytes += pairs + [UInt8](repeating: 0, count: padding) }
            default:
                let half = [UInt8](repeating: 0, count: padding / 2)
                let (first, second) = format == .yv12 ? (vs, us) : (us, vs)
                for _ in 0..<chromaRows { bytes += first + half }
                for _ in 0..<chromaRows { bytes += second + half }
            }
        default:
            Issue.record("no packing for \(format)")
        }
        return PackedFrame(
            bytes: bytes, format: format, width: width, height: height, bytesPerLine: line, time: Instant(microseconds: 7))
    }

    static let yuvFormats: [FourCC] = [.yuyv, .uyvy, .yvyu, .vyuy, .nv12, .nv21, .yu12, .yv12, .yuv422p]

    @Test(arguments: yuvFormats)
    func everyYUVFormatComesOutAsItWent(_ format: FourCC) throws {
        let frame = try #require(PixelConverter().convert(Self.packed(format)), "\(format) converts")
        #expect(frame.width == Self.width && frame.height == Self.height && frame.time == Instant(microseconds: 7))
        let lumaOff = (0..<Self.height).flatMap { row in
            (0..<Self.width).filter { abs(Int(frame.y[row * Self.width + $0]) - Int(Self.luma(row, $0))) > 1 }
        }
        #expect(lumaOff.isEmpty, "\(format): luma off at \(lumaOff.count) pixels")
        for row in 0..<Self.height / 2 {
            for column in 0..<Self.width / 2 {
                let index = row * Self.width / 2 + column
                #expect(abs(Int(frame.u[index]) - Int(Self.blue(column * 2))) <= 2, "\(format): U at \(row),\(column)")
                #expect(abs(Int(frame.v[index]) - Int(Self.red(column * 2))) <= 2, "\(format): V at \(row),\(column)")
            }
        }
    }

    @Test func greyAndRGBAreConvertedToLimitedRangeYUV() throws {
        let converter = PixelConverter()
        let (width, height) = (Self.width, Self.height)
        let greys = (0..<height).flatMap { row in (0..<width).map { _ in UInt8(row < height / 2 ? 0 : 255) } }
        let grey = try #require(
            converter.convert(
                PackedFrame(
                    bytes: greys, format: .grey, width: width, height: height, bytesPerLine: width, time: .init(microseconds: 0)))
        )
        #expect(abs(Int(grey.y[0]) - 16) <= 1 && abs(Int(grey.y[width * height - 1]) - 235) <= 1)
        #expect(grey.u.allSatisfy { abs(Int($0) - 128) <= 1 } && grey.v.allSatisfy { abs(Int($0) - 128) <= 1 })
        // Pure red: BT.601 limited range Y 81, U 90, V 240.
        for (format, pixel) in [(FourCC.rgb24, [UInt8(255), 0, 0]), (.bgr24, [0, 0, 255])] {
            let bytes = (0..<width * height).flatMap { _ in pixel }
            let red = try #require(
                converter.convert(
                    PackedFrame(
                        bytes: bytes, format: format, width: width, height: height, bytesPerLine: width * 3,
                        time: .init(microseconds: 0))))
            #expect(red.y.allSatisfy { abs(Int($0) - 81) <= 2 }, "\(format): Y \(red.y[0])")
            #expect(red.u.allSatisfy { abs(Int($0) - 90) <= 2 }, "\(format): U \(red.u[0])")
            #expect(red.v.allSatisfy { abs(Int($0) - 240) <= 2 }, "\(format): V \(red.v[0])")
        }
    }

    @Test func shortBuffersOddSizesShortRowsAndOtherFormatsGiveNothing() {
        let converter = PixelConverter()
        var short = Self.packed(.yuyv)
        short.bytes.removeLast(short.bytesPerLine)
        #expect(converter.convert(short) == nil)
        var odd = Self.packed(.yuyv)
        odd.width = 15
        #expect(converter.convert(odd) == nil)
        var narrow = Self.packed(.yuyv)
        narrow.bytesPerLine = Self.width
        #expect(converter.convert(narrow) == nil)
        var compressed = Self.packed(.yuyv)
        compressed.format = .mjpeg
        #expect(converter.convert(compressed) == nil)
        // After refusals, a good frame still converts with the same converter.
        #expect(converter.convert(Self.packed(.yuyv)) != nil)
    }

    @Test func everyFormatSlateSelectsIsConverted() {
        for format in FourCC.encodable {
            #expect(PixelConverter.reads(format), "libswscale does not read \(format)")
        }
    }
}

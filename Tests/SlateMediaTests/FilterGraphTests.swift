import SlateCore
import Testing

@testable import SlateMedia

/// The libavfilter graph behind the export filters, mirroring and digital zoom.
@Suite struct FilterGraphTests {
    /// A 64x48 frame with a luma gradient and strongly coloured chroma.
    static func colourful() -> VideoFrame {
        let y = (0..<(64 * 48)).map { (index: Int) -> UInt8 in UInt8((index % 64) * 4) }
        let u = (0..<(32 * 24)).map { (index: Int) -> UInt8 in UInt8(40 + (index % 7) * 25) }
        let v = (0..<(32 * 24)).map { (index: Int) -> UInt8 in UInt8(220 - (index % 5) * 30) }
        return VideoFrame(width: 64, height: 48, y: y, u: u, v: v, time: Instant(microseconds: 40_000))
    }

    func mean(_ values: [UInt8]) -> Double { Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count) }

    func spread(_ values: [UInt8]) -> Double {
        let average = mean(values)
        return (values.reduce(0.0) { $0 + (Double($1) - average) * (Double($1) - average) } / Double(values.count))
            .squareRoot()
    }

    @Test func hflipMirrorsEveryPlaneAndTwiceIsNothing() throws {
        let width = 6, height = 4
        let y = (0..<(width * height)).map { UInt8($0) }
        let u = (0..<6).map { UInt8(100 + $0) }, v = (0..<6).map { UInt8(200 + $0) }
        let original = VideoFrame(width: width, height: height, y: y, u: u, v: v, time: Instant(microseconds: 5))
        let graph = try FilterGraph(width: width, height: height, chain: "hflip")
        let mirrored = try graph.apply(original)
        #expect(Array(mirrored.y[0..<6]) == [5, 4, 3, 2, 1, 0])
        #expect(Array(mirrored.y[18..<24]) == [23, 22, 21, 20, 19, 18])
        #expect(mirrored.u == [102, 101, 100, 105, 104, 103] && mirrored.v == [202, 201, 200, 205, 204, 203])
        #expect(mirrored.time == original.time)
        let back = try graph.apply(mirrored)
        #expect(back.y == original.y && back.u == original.u && back.v == original.v)
    }

    @Test func monoRemovesColourAndSoftensContrastByAFifteenth() throws {
        let frame = Self.colourful()
        let mono = try FilterGraph(width: 64, height: 48, chain: try #require(ExportFilter.mono.filterChain)).apply(frame)
        #expect(mono.u.allSatisfy { $0 == 128 } && mono.v.allSatisfy { $0 == 128 })
        #expect(abs(spread(mono.y) / spread(frame.y) - 0.85) < 0.01)
        #expect(abs(mean(mono.y) - (mean(frame.y) * 0.85 + 128 * 0.15)) < 1.5)
        #expect(mono.y.min()! >= 18 && mono.y.max()! <= 237)
    }

    /// Sepia keeps the luma and gives every pixel the same brown: mid-grey
    /// (BT.601, limited range) is red over green over blue, with the hue of the
    /// classic sepia matrix (about 38 degrees).
    @Test func sepiaIsABrownOfTheClassicHue() throws {
        let frame = Self.colourful()
        let sepia = try FilterGraph(width: 64, height: 48, chain: try #require(ExportFilter.sepia.filterChain)).apply(frame)
        #expect(sepia.y.elementsEqual(frame.y), "the luma changed")
        #expect(sepia.u.allSatisfy { $0 == sepia.u[0] } && sepia.v.allSatisfy { $0 == sepia.v[0] })
        let luma = 1.164 * (126.0 - 16), cb = Double(sepia.u[0]) - 128, cr = Double(sepia.v[0]) - 128
        let (red, green, blue) = (luma + 1.596 * cr, luma - 0.392 * cb - 0.813 * cr, luma + 2.017 * cb)
        #expect(red > green && green > blue)
        let hue = 60 * (green - blue) / (red - blue)
        #expect(hue > 35 && hue < 41, "\(hue)")
    }

    @Test func scaleGivesTheSizeAsked() throws {
        let frame = VideoFrame(width: 64, height: 48, luma: 180, time: Instant(microseconds: 0))
        let scaled = try FilterGraph(width: 64, height: 48, chain: "scale=32:24:flags=bilinear").apply(frame)
        #expect(scaled.width == 32 && scaled.height == 24 && scaled.u.count == 16 * 12)
        #expect(scaled.y.allSatisfy { abs(Int($0) - 180) <= 1 })
    }

    @Test func aCropMovedByCommandsIsScaledBackToTheFullSize() throws {
        var frame = VideoFrame(width: 200, height: 100, time: Instant(microseconds: 0))
        for row in 0..<100 { for column in 0..<200 { frame.y[row * 200 + column] = UInt8(column) } }
        let graph = try FilterGraph(
            width: 200, height: 100, chain: "crop@zoom=w=200:h=100:x=0:y=0,scale@zoom=200:100:flags=bilinear")
        #expect(try graph.apply(frame).y[0] == 0)
        for (option, value) in [("w", 100), ("h", 50), ("x", 50), ("y", 24)] {
            try graph.send(option, "\(value)", to: "crop@zoom")
        }
        try graph.send("w", "200", to: "scale@zoom")
        let zoomed = try graph.apply(frame)
        #expect(zoomed.width == 200 && zoomed.height == 100)
        #expect(
            (49...51).contains(Int(zoomed.y[0])) && (147...150).contains(Int(zoomed.y[199])), "\(zoomed.y[0]) \(zoomed.y[199])")
    }

    @Test func aChainLibavfilterCannotBuildIsAnErrorNamingIt() {
        let error = #expect(throws: MediaError.self) { try FilterGraph(width: 64, height: 48, chain: "no-such-filter") }
        #expect(error?.path == "no-such-filter" && error?.operation == "set up the filters")
        let graph = try? FilterGraph(width: 64, height: 48, chain: "hflip")
        let wrongSize = #expect(throws: MediaError.self) {
            try graph?.apply(VideoFrame(width: 32, height: 48, time: Instant(microseconds: 0)))
        }
        #expect(wrongSize?.message == "the frame is 32x48, the filters take 64x48")
    }
}

/// A synthetic camera: color bars that scroll, a box that bounces along the
/// bottom, and the frame index and timestamp in big digits, so a person
/// watching a recording sees every frame advance.
///
/// Frames are drawn row by row with buffer copies and fills, fast enough for
/// 1080p at well over 30 fps in a release build.
public struct TestPattern: Sendable {
    public let width: Int
    public let height: Int
    private let barsY: [UInt8]
    private let barsU: [UInt8]
    private let barsV: [UInt8]

    /// Limited-range BT.601 (Y, Cb, Cr) of the classic bars: white, yellow,
    /// cyan, green, magenta, red, blue, black.
    static let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]

    public init(width: Int, height: Int) {
        precondition(width >= 2 && height >= 2, "a test pattern needs at least 2x2 pixels")
        self.width = width
        self.height = height
        let chromaWidth = (width + 1) / 2
        func row(_ count: Int, _ component: ((UInt8, UInt8, UInt8)) -> UInt8) -> [UInt8] {
            var row = [UInt8](repeating: 0, count: count)
            for bar in 0..<TestPattern.bars.count {
                let start = bar * count / TestPattern.bars.count
                let end = (bar + 1) * count / TestPattern.bars.count
                for x in start..<end { row[x] = component(TestPattern.bars[bar]) }
            }
            return row
        }
        barsY = row(width) { $0.0 }
        barsU = row(chromaWidth) { $0.1 }
        barsV = row(chromaWidth) { $0.2 }
    }

    /// Frame `index`, stamped with `time` (drawn as seconds since the clock's origin).
    public func frame(index: Int, time: Instant) -> VideoFrame {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        // The bars scroll left by an even number of pixels per frame.
        let step = max(2, width / 120) & ~1
        let shift = (index * step) % (chromaWidth * 2)
        var y = Plane(barsY, width: width, height: height, shift: shift % width)
        var u = Plane(barsU, width: chromaWidth, height: chromaHeight, shift: (shift / 2) % chromaWidth)
        var v = Plane(barsV, width: chromaWidth, height: chromaHeight, shift: (shift / 2) % chromaWidth)

        // A dark band along the bottom with a white box bouncing across it.
        let band = max(2, height / 6) & ~1
        let bandTop = (height - band) & ~1
        y.fill(x: 0, y: bandTop, width: width, height: band, 40)
        u.fill(x: 0, y: bandTop / 2, width: chromaWidth, height: band / 2, 128)
        v.fill(x: 0, y: bandTop / 2, width: chromaWidth, height: band / 2, 128)
        let box = max(2, band * 3 / 5) & ~1
        let travel = max(1, width - box)
        let position = (index * max(2, width / 60)) % (2 * travel)
        let boxX = (position < travel ? position : 2 * travel - position) & ~1
        let boxY = (bandTop + (band - box) / 2) & ~1
        y.fill(x: boxX, y: boxY, width: box, height: box, 235)

        // The frame index, and below it the time, white on black at the top left.
        let big = max(2, height / 36)
        let small = max(1, big / 2)
        let indexText = String(index)
        let timeText = Instant.formatSeconds(time.microseconds, decimals: 3) + " s"
        let margin = small * 2
        let textWidth = max(indexText.utf8.count * 6 * big, timeText.utf8.count * 6 * small) - max(big, small)
        let boxWidth = (textWidth + 2 * margin + 1) & ~1
        let boxHeight = (7 * big + 7 * small + 3 * margin + 1) & ~1
        y.fill(x: 0, y: 0, width: boxWidth, height: boxHeight, 16)
        u.fill(x: 0, y: 0, width: boxWidth / 2, height: boxHeight / 2, 128)
        v.fill(x: 0, y: 0, width: boxWidth / 2, height: boxHeight / 2, 128)
        y.draw(indexText, x: margin, y: margin, scale: big)
        y.draw(timeText, x: margin, y: 2 * margin + 7 * big, scale: small)

        return VideoFrame(width: width, height: height, y: y.bytes, u: u.bytes, v: v.bytes, time: time)
    }
}

/// One plane being drawn: every row starts as the scrolled bars row.
private struct Plane {
    var bytes: [UInt8]
    let width: Int
    let height: Int

    init(_ row: [UInt8], width: Int, height: Int, shift: Int) {
        self.width = width
        self.height = height
        bytes = [UInt8](unsafeUninitializedCapacity: width * height) { buffer, count in
            row.withUnsafeBufferPointer { source in
                let tail = width - shift
                for line in 0..<height {
                    let start = line * width
                    // bars[shift...] then bars[..<shift]: the row scrolled left.
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[start..<start + tail])
                        .update(fromContentsOf: UnsafeBufferPointer(rebasing: source[shift..<width]))
                    if shift > 0 {
                        _ = UnsafeMutableBufferPointer(rebasing: buffer[start + tail..<start + width])
                            .update(fromContentsOf: UnsafeBufferPointer(rebasing: source[0..<shift]))
                    }
                }
            }
            count = width * height
        }
    }

    /// Fills a rectangle, clipped to the plane.
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ value: UInt8) {
        let left = max(0, x), right = min(width, x + w)
        let top = max(0, y), bottom = min(height, y + h)
        guard left < right, top < bottom else { return }
        let width = self.width
        bytes.withUnsafeMutableBufferPointer { buffer in
            for line in top..<bottom {
                UnsafeMutableBufferPointer(rebasing: buffer[line * width + left..<line * width + right])
                    .update(repeating: value)
            }
        }
    }

    /// Draws `text` in white with the 5x7 font, each font pixel `scale` pixels square.
    mutating func draw(_ text: String, x: Int, y: Int, scale: Int) {
        var penX = x
        for character in text.utf8 {
            let rows = Font.glyph(character)
            for (row, bits) in rows.enumerated() where bits != 0 {
                var column = 0
                while column < 5 {
                    // One run of set bits becomes one fill per glyph row.
                    guard bits & (0x10 >> column) != 0 else {
                        column += 1
                        continue
                    }
                    var end = column
                    while end < 5 && bits & (0x10 >> end) != 0 { end += 1 }
                    fill(x: penX + column * scale, y: y + row * scale, width: (end - column) * scale, height: scale, 235)
                    column = end
                }
            }
            penX += 6 * scale
        }
    }
}

/// A 5x7 bitmap font for digits, '.', '-', 's' and space: seven rows of five bits.
private enum Font {
    static let digits: [[UInt8]] = [
        [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
    ]
    static let dot: [UInt8] = [0, 0, 0, 0, 0, 0x0C, 0x0C]
    static let minus: [UInt8] = [0, 0, 0, 0x1F, 0, 0, 0]
    static let s: [UInt8] = [0, 0, 0x0E, 0x10, 0x0E, 0x01, 0x1E]
    static let blank: [UInt8] = [0, 0, 0, 0, 0, 0, 0]

    static func glyph(_ character: UInt8) -> [UInt8] {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits[Int(character - UInt8(ascii: "0"))]
        case UInt8(ascii: "."): dot
        case UInt8(ascii: "-"): minus
        case UInt8(ascii: "s"): s
        default: blank
        }
    }
}

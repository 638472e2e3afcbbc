/// Camera frames in raw V4L2 formats to I420 (yuv420p), the encoder's input.
public enum RawFrameConversion {
    /// The formats `convert` reads.
    public static let formats: [FourCC] = [.yuyv, .uyvy, .nv12, .yu12, .yv12]

    /// Converts one `width`x`height` frame whose first plane's rows are
    /// `bytesPerLine` apart; chroma of the packed formats is averaged over row pairs.
    /// Nil for a format not in `formats` or a buffer too short for the frame.
    public static func convert(
        _ bytes: UnsafeRawBufferPointer, format: FourCC, width: Int, height: Int, bytesPerLine: Int, time: Instant
    ) -> VideoFrame? {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else { return nil }
        let chromaWidth = width / 2, chromaHeight = height / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
        var v = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
        switch format {
        case .yuyv, .uyvy:
            guard bytesPerLine >= width * 2, bytes.count >= bytesPerLine * (height - 1) + width * 2 else { return nil }
            let (lumaAt, uAt, vAt) = format == .yuyv ? (0, 1, 3) : (1, 0, 2)
            for row in 0..<height {
                let line = row * bytesPerLine
                for column in 0..<width { y[row * width + column] = bytes[line + column * 2 + lumaAt] }
            }
            for row in 0..<chromaHeight {
                let top = row * 2 * bytesPerLine, bottom = top + bytesPerLine
                for column in 0..<chromaWidth {
                    let pair = column * 4
                    u[row * chromaWidth + column] = average(bytes[top + pair + uAt], bytes[bottom + pair + uAt])
                    v[row * chromaWidth + column] = average(bytes[top + pair + vAt], bytes[bottom + pair + vAt])
                }
            }
        case .nv12, .yu12, .yv12:
            let lumaSize = bytesPerLine * height
            let chromaLine = format == .nv12 ? bytesPerLine : bytesPerLine / 2
            guard bytesPerLine >= width, bytes.count >= lumaSize + chromaLine * chromaHeight * (format == .nv12 ? 1 : 2)
            else { return nil }
            for row in 0..<height {
                for column in 0..<width { y[row * width + column] = bytes[row * bytesPerLine + column] }
            }
            for row in 0..<chromaHeight {
                for column in 0..<chromaWidth {
                    let index = row * chromaWidth + column
                    if format == .nv12 {
                        let at = lumaSize + row * chromaLine + column * 2
                        u[index] = bytes[at]
                        v[index] = bytes[at + 1]
                    } else {
                        let first = bytes[lumaSize + row * chromaLine + column]
                        let second = bytes[lumaSize + chromaLine * chromaHeight + row * chromaLine + column]
                        (u[index], v[index]) = format == .yu12 ? (first, second) : (second, first)
                    }
                }
            }
        default:
            return nil
        }
        return VideoFrame(width: width, height: height, y: y, u: u, v: v, time: time)
    }

    private static func average(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((UInt16(a) + UInt16(b) + 1) / 2) }
}

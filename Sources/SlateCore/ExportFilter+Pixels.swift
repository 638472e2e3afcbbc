/// The export filters on I420 (yuv420p) planes, in place.
extension ExportFilter {
    /// Applies the filter to one `width`x`height` frame: `y` at full size, `u` and
    /// `v` at half width and half height (rounded up), rows without padding.
    ///
    /// - `mono`: desaturated with softened contrast, like photoEffectMono: chroma
    ///   neutral, luma pulled 15% towards mid-grey.
    /// - `sepia`: desaturated, then tinted brown like the classic sepia matrix
    ///   (Cb below neutral, Cr above it by three fifths as much, a hue near 38
    ///   degrees), strongest in the mid-tones.
    public func apply(width: Int, height: Int, y: inout [UInt8], u: inout [UInt8], v: inout [UInt8]) {
        switch self {
        case .none:
            return
        case .mono:
            for index in y.indices { y[index] = ExportFilter.soften[Int(y[index])] }
            u.withUnsafeMutableBufferPointer { $0.update(repeating: 128) }
            v.withUnsafeMutableBufferPointer { $0.update(repeating: 128) }
        case .sepia:
            let chromaWidth = (width + 1) / 2
            let chromaHeight = (height + 1) / 2
            guard y.count >= width * height, u.count >= chromaWidth * chromaHeight, v.count >= u.count else { return }
            for row in 0..<chromaHeight {
                for column in 0..<chromaWidth {
                    let strength = ExportFilter.midtone[Int(y[row * 2 * width + column * 2])]
                    u[row * chromaWidth + column] = UInt8(128 - strength)
                    v[row * chromaWidth + column] = UInt8(128 + strength * 3 / 5)
                }
            }
        }
    }

    /// Luma pulled 15% towards 128.
    static let soften: [UInt8] = (0..<256).map { UInt8((Double($0) * 0.85 + 128 * 0.15).rounded()) }

    /// Tint strength by luma: strongest in the mid-tones, none at black and white.
    static let midtone: [Int] = (0..<256).map { luma in
        let x = Double(luma) / 255
        return Int((4 * x * (1 - x) * 18).rounded())
    }
}

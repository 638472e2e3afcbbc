extension VideoFrame {
    /// Flips the picture left to right, as a front camera's preview shows it.
    public mutating func mirror() {
        Self.reverseRows(&y, width: width, height: height)
        Self.reverseRows(&u, width: chromaWidth, height: chromaHeight)
        Self.reverseRows(&v, width: chromaWidth, height: chromaHeight)
    }

    private static func reverseRows(_ plane: inout [UInt8], width: Int, height: Int) {
        plane.withUnsafeMutableBufferPointer { pixels in
            for row in 0..<height {
                var left = row * width, right = left + width - 1
                while left < right {
                    pixels.swapAt(left, right)
                    left += 1
                    right -= 1
                }
            }
        }
    }
}

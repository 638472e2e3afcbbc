extension Double {
    /// The value to `decimals` places, as JSON shows it (`1.7`, not the
    /// `1.7000000000000002` that 1 + 7 × 0.1 makes); one too large to scale is kept.
    public func rounded(decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        return abs(self) < 1e12 ? (self * scale).rounded() / scale : self
    }
}

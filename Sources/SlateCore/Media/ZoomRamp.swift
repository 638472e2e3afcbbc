/// Zoom that moves smoothly: a target within [1, min(camera maximum, 6)] and a
/// factor that approaches it frame by frame instead of jumping.
public struct ZoomRamp: Sendable {
    /// The seed's limit: never more than 6x, whatever the camera can do.
    public static let limit = 6.0

    public let maximum: Double
    /// How much the factor may change per second (a full 1x-6x ramp takes a second).
    public let rate: Double
    public private(set) var factor = 1.0
    public private(set) var target = 1.0

    public init(cameraMaximum: Double = ZoomRamp.limit, rate: Double = 5) {
        maximum = min(max(1, cameraMaximum), ZoomRamp.limit)
        self.rate = rate
    }

    /// Sets the target, clamped to the allowed range; returns the clamped target.
    @discardableResult
    public mutating func aim(at factor: Double) -> Double {
        target = min(max(factor, 1), maximum)
        return target
    }

    /// Moves the factor towards the target for `elapsed` time; returns the new factor.
    @discardableResult
    public mutating func advance(by elapsed: Duration) -> Double {
        let step = rate * Double(elapsed.microseconds) / 1_000_000
        factor = factor < target ? min(target, factor + step) : max(target, factor - step)
        return factor
    }

    /// The centred crop that gives this zoom on a `width`x`height` frame (even sizes, for I420).
    public func crop(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let cropWidth = max(2, Int(Double(width) / factor) & ~1)
        let cropHeight = max(2, Int(Double(height) / factor) & ~1)
        return (((width - cropWidth) / 2) & ~1, ((height - cropHeight) / 2) & ~1, cropWidth, cropHeight)
    }
}

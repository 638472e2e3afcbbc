import SlateCore

/// What the recording thread does to each frame before it is encoded:
/// mirroring, and zoom that ramps towards its target frame by frame, either
/// through the camera's own zoom control or digitally.
public final class FrameTuning: @unchecked Sendable {
    private let shared = Monitor()
    private var target = 1.0
    private var isMirrored: Bool
    private let cameraZoom: ((Double) -> Void)?

    // Owned by the recording thread.
    private var ramp: ZoomRamp
    private var applied = 1.0
    private let digital = DigitalZoom()

    /// `cameraZoom`, when the camera has a zoom control, sets it for a factor
    /// within [1, `cameraMaximum`]; otherwise zoom is digital.
    public init(mirrored: Bool, cameraMaximum: Double = ZoomRamp.limit, cameraZoom: ((Double) -> Void)? = nil) {
        isMirrored = mirrored
        self.cameraZoom = cameraZoom
        ramp = ZoomRamp(cameraMaximum: cameraMaximum)
    }

    /// The zoom range this camera allows.
    public var maximumZoom: Double { ramp.maximum }

    /// Aims the zoom at `factor`; returns the target after clamping.
    public func aim(at factor: Double) -> Double {
        let clamped = min(max(factor, 1), ramp.maximum)
        shared.locked { target = clamped }
        return clamped
    }

    public var mirrored: Bool {
        get { shared.locked { isMirrored } }
        set { shared.locked { isMirrored = newValue } }
    }

    /// Applies the settings to a capture `interval` after the previous one.
    /// Compressed frames pass as they come: only the camera's own zoom moves
    /// (packed frames are unpacked first).
    func apply(_ capture: Capture, interval: Duration) -> Capture {
        switch capture {
        case .raw(let frame): return .raw(apply(frame, interval: interval))
        case .packed, .compressed:
            _ = step(interval)
            return capture
        }
    }

    /// Applies the settings to a frame `interval` after the previous one.
    func apply(_ frame: VideoFrame, interval: Duration) -> VideoFrame {
        let mirror = step(interval)
        var out = cameraZoom == nil ? digital.apply(frame, ramp: ramp) : frame
        if mirror { out.mirror() }
        return out
    }

    /// Moves the zoom along its ramp (setting the camera's control when it has
    /// one); returns whether frames are mirrored.
    private func step(_ interval: Duration) -> Bool {
        let (goal, mirror) = shared.locked { (target, isMirrored) }
        ramp.aim(at: goal)
        let factor = ramp.advance(by: interval)
        if let cameraZoom, factor != applied { cameraZoom(factor) }
        applied = factor
        return mirror
    }

    /// Whether zoom is done by the camera rather than by cropping frames.
    public var zoomsInCamera: Bool { cameraZoom != nil }
}

import SlateCore
import SlateSystem

/// What the recording thread does to each frame before it is encoded:
/// mirroring, and zoom that ramps towards its target frame by frame, either
/// through the camera's own zoom control or digitally. Software mirroring and
/// digital zoom are one filter graph: `crop@zoom` (the centred crop `ZoomRamp`
/// gives), `scale@zoom` (back to the full size), then `hflip` when mirrored; a
/// ramp moves the crop with commands to the graph, frame by frame. It belongs
/// to the take pipeline's thread.
public final class FrameTuning {
    private var target = 1.0
    /// Whether frames are mirrored.
    public var mirrored: Bool
    private let cameraZoom: ((Double) -> Void)?
    private var ramp: ZoomRamp
    private var applied = 1.0
    private var graph: FilterGraph?
    private var graphCrop = Crop(x: 0, y: 0, width: 0, height: 0)
    private var graphMirrors = false

    private struct Crop: Equatable {
        var x, y, width, height: Int
    }

    /// `cameraZoom`, when the camera has a zoom control, sets it for a factor
    /// within [1, `cameraMaximum`]; otherwise zoom is digital.
    public init(mirrored: Bool, cameraMaximum: Double = ZoomRamp.limit, cameraZoom: ((Double) -> Void)? = nil) {
        self.mirrored = mirrored
        self.cameraZoom = cameraZoom
        ramp = ZoomRamp(cameraMaximum: cameraMaximum)
    }

    /// The zoom range this camera allows.
    public var maximumZoom: Double { ramp.maximum }

    /// Aims the zoom at `factor`; returns the target after clamping.
    public func aim(at factor: Double) -> Double {
        let clamped = min(max(factor, 1), ramp.maximum)
        target = clamped
        return clamped
    }

    /// Applies the settings to a capture `interval` after the previous one.
    /// Compressed frames pass as they come: only the camera's own zoom moves
    /// (packed frames are unpacked first).
    package func apply(_ capture: CameraFrame, interval: Duration) throws(MediaError) -> CameraFrame {
        switch capture {
        case .raw(let frame): return .raw(try apply(frame, interval: interval))
        case .packed, .compressed:
            _ = step(interval)
            return capture
        }
    }

    /// Applies the settings to a frame `interval` after the previous one.
    package func apply(_ frame: VideoFrame, interval: Duration) throws(MediaError) -> VideoFrame {
        let mirror = step(interval)
        let crop =
            cameraZoom == nil && ramp.factor > 1
            ? ramp.crop(width: frame.width, height: frame.height)
            : (x: 0, y: 0, width: frame.width, height: frame.height)
        let wanted = Crop(x: crop.x, y: crop.y, width: crop.width, height: crop.height)
        guard mirror || wanted.width < frame.width || wanted.height < frame.height else { return frame }
        if let graph, graph.width == frame.width, graph.height == frame.height, graphMirrors == mirror {
            if wanted != graphCrop {
                for (option, value) in [("w", wanted.width), ("h", wanted.height), ("x", wanted.x), ("y", wanted.y)] {
                    try graph.send(option, "\(value)", to: "crop@zoom")
                }
                // The scale filter sets itself up again for the new crop size.
                try graph.send("w", "\(frame.width)", to: "scale@zoom")
                graphCrop = wanted
            }
            return try graph.apply(frame)
        }
        graph = nil
        let chain =
            "crop@zoom=w=\(wanted.width):h=\(wanted.height):x=\(wanted.x):y=\(wanted.y),"
            + "scale@zoom=\(frame.width):\(frame.height):flags=bilinear" + (mirror ? ",hflip" : "")
        let built = try FilterGraph(width: frame.width, height: frame.height, chain: chain)
        (graph, graphCrop, graphMirrors) = (built, wanted, mirror)
        return try built.apply(frame)
    }

    /// Moves the zoom along its ramp (setting the camera's control when it has
    /// one); returns whether frames are mirrored.
    private func step(_ interval: Duration) -> Bool {
        ramp.aim(at: target)
        let factor = ramp.advance(by: interval)
        if let cameraZoom, factor != applied { cameraZoom(factor) }
        applied = factor
        return mirrored
    }

    /// Whether zoom is done by the camera rather than by cropping frames.
    public var zoomsInCamera: Bool { cameraZoom != nil }
}

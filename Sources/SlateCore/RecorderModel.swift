/// The recorder's state without a camera: recording or not, how many takes,
/// zoom, frame rate, position, torch and filter. `slate replay` drives it to
/// show what a rig would do; the live recorder keeps its books with it.
///
/// Switching the frame rate or the camera while recording splits the take: a
/// take file holds one camera format, so the take so far is closed and the next
/// one starts with the new camera.
public final class RecorderModel: Recorder {
    /// Zoom range, as in the seed's CaptureSessionController.
    public static let zoomRange: ClosedRange<Double> = 1...ZoomRamp.limit
    /// Zoom change for one step (one knob detent).
    public static let zoomPerStep = 0.1

    public private(set) var isRecording = false
    public private(set) var takes = 0
    public private(set) var zoom = 1.0
    public private(set) var fps: Int
    public private(set) var position: CameraPosition
    public private(set) var torch = false
    public private(set) var filter: ExportFilter
    /// The camera's own zoom limit, when it is below the seed's 6x.
    public var zoomLimit = ZoomRamp.limit

    public init(
        fps: Int = 60, position: CameraPosition = .back, filter: ExportFilter = .none, takes: Int = 0
    ) {
        self.fps = fps
        self.position = position
        self.filter = filter
        self.takes = takes
    }

    /// The state a profile's camera section starts with.
    public convenience init(camera: CameraSpec, takes: Int = 0) {
        self.init(fps: camera.fps, position: camera.position, filter: camera.filter, takes: takes)
    }

    /// What a live recorder really holds after a lost camera or a failed export:
    /// `takes` finished takes, and a take in progress or not.
    public func settle(takes: Int, recording: Bool = false) {
        isRecording = recording
        self.takes = takes
    }

    public func perform(_ command: RecorderCommand, at time: Instant) -> RecorderOutcome {
        switch command {
        case .start:
            guard !isRecording else { return .ignored("already recording") }
            isRecording = true
            return .started(take: takes + 1)
        case .stop:
            guard isRecording else { return .ignored("not recording") }
            isRecording = false
            takes += 1
            return .stopped(take: takes)
        case .deleteLast:
            guard takes > 0, !isRecording else {
                return .ignored(isRecording ? "recording" : "no takes")
            }
            defer { takes -= 1 }
            return .deleted(take: takes)
        case .export:
            if isRecording { _ = perform(.stop, at: time) }
            guard takes > 0 else { return .ignored("no takes") }
            defer { takes = 0 }
            return .exported(takes: takes)
        case .zoomStep(let steps):
            return setZoom(zoom + steps * Self.zoomPerStep)
        case .zoomSet(let factor):
            return setZoom(factor)
        case .fpsToggle:
            if isRecording { takes += 1 }
            fps = fps == 60 ? 30 : 60
            return .fps(fps)
        case .cameraToggle:
            if isRecording { takes += 1 }
            position = position == .back ? .front : .back
            return .camera(position)
        case .torchToggle:
            torch.toggle()
            return .torch(torch)
        case .filterNext:
            filter = filter.next
            return .filter(filter.rawValue)
        }
    }

    private func setZoom(_ factor: Double) -> RecorderOutcome {
        let clamped = min(max(factor, Self.zoomRange.lowerBound), min(Self.zoomRange.upperBound, zoomLimit))
        zoom = (clamped * 100).rounded() / 100
        return .zoom(zoom)
    }
}

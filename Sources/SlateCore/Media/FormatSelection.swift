/// Picks the capture mode for a frame rate, the way the camera app picks its format:
/// among every pixel format and frame size whose frame intervals allow the desired
/// frame rate, the largest width x height (within `maxSize`).
///
/// At the same size, with pass-through allowed, a compressed format Slate can store as it
/// comes is preferred (H.264, HEVC, then MJPEG: `FourCC.passThrough`) over raw; raw formats
/// are ranked by `FourCC.encodable`. Without pass-through only raw formats Slate can encode
/// from are candidates, and MJPEG (decoded, then encoded) only when the camera offers
/// no such raw format. Formats libv4l2 emulates (`CameraMode.isEmulated`) are left out
/// unless `allowsEmulated`: they cost a conversion and a copy per frame.
///
/// The interval to set is exactly the rate's (1/25, 1001/30000) when the mode allows it, else the closest interval
/// that still gives at least the frame rate (40 fps for 30 when a camera only has 1/40).
///
/// When no mode reaches the frame rate, the result is `.belowFrameRate` with the fastest
/// mode (then the largest, then the preferred format) at its shortest interval, and a
/// reason saying so; the caller decides whether to record at that rate. When no mode is
/// usable at all (no modes, none within `maxSize`, no format Slate can use), the result is
/// `.unavailable` with the reason.
public struct FormatSelection: Sendable {
    public var fps: FrameRate
    public var maxSize: (width: Int, height: Int)?
    public var passThrough: Bool
    public var allowsEmulated: Bool

    public init(fps: FrameRate, maxSize: (width: Int, height: Int)? = nil, passThrough: Bool = true, allowsEmulated: Bool = false)
    {
        self.fps = fps
        self.maxSize = maxSize
        self.passThrough = passThrough
        self.allowsEmulated = allowsEmulated
    }

    /// The selection a profile's camera section asks for.
    public init(_ spec: CameraSpec) {
        self.init(fps: spec.fps, maxSize: spec.maxSize, passThrough: spec.passthrough)
    }

    /// A chosen mode and the interval to set on it.
    public struct Choice: Hashable, Sendable {
        public var mode: CameraMode
        /// The frame interval to set (`VIDIOC_S_PARM`).
        public var interval: Fraction
        /// The format goes into the take as it comes (a compressed format with pass-through allowed).
        public var passesThrough: Bool

        /// The frames are compressed and must be decoded before they are encoded.
        public var isDecoded: Bool { !passesThrough && mode.pixelFormat.isPassThrough }
    }

    public enum Outcome: Hashable, Sendable {
        /// The largest mode that reaches the frame rate.
        case chosen(Choice, reason: String)
        /// No mode reaches the frame rate; the fastest usable one.
        case belowFrameRate(Choice, reason: String)
        /// No mode Slate can use.
        case unavailable(reason: String)

        public var choice: Choice? {
            switch self {
            case .chosen(let choice, _), .belowFrameRate(let choice, _): choice
            case .unavailable: nil
            }
        }

        public var reason: String {
            switch self {
            case .chosen(_, let reason), .belowFrameRate(_, let reason), .unavailable(let reason): reason
            }
        }

        /// The choice reaches the wanted frame rate.
        public var reachesFrameRate: Bool {
            if case .chosen = self { return true }
            return false
        }
    }

    public func select(from modes: [CameraMode]) -> Outcome {
        guard !modes.isEmpty else { return .unavailable(reason: "the camera lists no modes") }
        let fitting = modes.filter { mode in
            guard let maxSize else { return true }
            return mode.width <= maxSize.width && mode.height <= maxSize.height
        }
        guard !fitting.isEmpty else {
            return .unavailable(reason: "no mode fits within \(maxSizeText) (smallest: \(smallest(modes)))")
        }
        var usable = fitting.filter { rank($0) != nil }
        if usable.isEmpty && !passThrough {
            usable = fitting.filter { FourCC.decodable.contains($0.pixelFormat) && (allowsEmulated || !$0.isEmulated) }
        }
        guard !usable.isEmpty else {
            let formats = Set(fitting.map(\.pixelFormat.string)).sorted().joined(separator: ", ")
            return .unavailable(
                reason: "no format Slate can \(passThrough ? "use" : "encode from without pass-through"): \(formats)")
        }
        let target = fps.interval
        let reaching = usable.filter { $0.intervals.allows(target) }
        if let best = reaching.max(by: { better($1, than: $0) }),
            let interval = best.intervals.closest(atMost: target)
        {
            let choice = Choice(mode: best, interval: interval, passesThrough: passes(best))
            var reason = "largest mode allowing \(fps) fps" + (maxSize == nil ? "" : " within \(maxSizeText)")
            if interval != target { reason += "; no \(target) interval, \(interval) (\(interval.fpsText) fps) instead" }
            if choice.passesThrough { reason += "; \(best.pixelFormat) passed through" }
            if choice.isDecoded { reason += "; no raw format, so \(best.pixelFormat) is decoded" }
            if best.isEmulated { reason += "; \(best.pixelFormat) is converted by libv4l2" }
            return .chosen(choice, reason: reason)
        }
        // Nothing reaches the frame rate: the fastest mode, then the largest, then the preferred format.
        let fastest = usable.compactMap { mode in mode.intervals.fastest.map { (mode, $0) } }
            .max { a, b in
                if a.1 != b.1 { return a.1 > b.1 }
                return better(b.0, than: a.0)
            }
        guard let (mode, interval) = fastest else {
            return .unavailable(reason: "no mode lists a valid frame interval")
        }
        let choice = Choice(mode: mode, interval: interval, passesThrough: passes(mode))
        return .belowFrameRate(
            choice,
            reason: "no mode reaches \(fps) fps\(maxSize == nil ? "" : " within \(maxSizeText)"); "
                + "the fastest is \(mode.description) at \(interval.fpsText) fps")
    }

    private var maxSizeText: String { maxSize.map { "\($0.width)x\($0.height)" } ?? "any size" }

    private func smallest(_ modes: [CameraMode]) -> String {
        modes.min { $0.area < $1.area }.map(\.size) ?? "none"
    }

    private func passes(_ mode: CameraMode) -> Bool { passThrough && mode.pixelFormat.isPassThrough }

    /// Lower is better; nil when Slate cannot use the mode.
    func rank(_ mode: CameraMode) -> Int? {
        if mode.isEmulated && !allowsEmulated { return nil }
        let emulated = mode.isEmulated ? 100 : 0
        if passThrough, let index = FourCC.passThrough.firstIndex(of: mode.pixelFormat) { return index + emulated }
        if let index = FourCC.encodable.firstIndex(of: mode.pixelFormat) { return 10 + index + emulated }
        return nil
    }

    /// Larger first, then the preferred format.
    private func better(_ a: CameraMode, than b: CameraMode) -> Bool {
        if a.area != b.area { return a.area > b.area }
        if a.width != b.width { return a.width > b.width }
        return (rank(a) ?? .max) < (rank(b) ?? .max)
    }
}

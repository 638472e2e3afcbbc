import SlateCore

/// Frames from a V4L2 camera for the recorder: the mode the seed's rule picks
/// among the raw formats Slate converts, streamed with 4 buffers and converted
/// to I420, each stamped with the driver's capture time.
public final class V4L2FrameSource: FrameSource, @unchecked Sendable {
    public let camera: V4L2Camera
    public let width: Int
    public let height: Int
    public let fps: Int
    /// What was chosen and why, for the log.
    public let choice: String
    private let format: FourCC
    private let stopped = Monitor()
    private var isStopped = false

    /// Why a camera cannot feed the recorder.
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    public init(path: String, fps: Int, maxSize: (width: Int, height: Int)? = nil) throws {
        camera = try V4L2Camera(path: path)
        let modes = try camera.modes().filter { RawFrameConversion.formats.contains($0.pixelFormat) }
        let selection = FormatSelection(fps: fps, maxSize: maxSize, passThrough: false)
        let picked: FormatSelection.Choice
        var reason: String
        switch selection.select(from: modes) {
        case .chosen(let choice, let why):
            (picked, reason) = (choice, why)
        case .belowFrameRate(let choice, let why):
            (picked, reason) = (choice, why)
        case .unavailable(let why):
            throw Unusable(description: "\(path) (\(camera.card)): \(why)")
        }
        let set = try camera.configure(mode: picked.mode, interval: picked.interval)
        try camera.start(bufferCount: 4)
        width = set.mode.width
        height = set.mode.height
        format = set.mode.pixelFormat
        self.fps = set.interval.fps.isFinite ? max(1, Int(set.interval.fps.rounded())) : fps
        reason += "; the driver set \(set.mode.formatName) \(width)x\(height) at \(set.interval.fpsText) fps"
        choice = reason
    }

    public func nextFrame() throws -> VideoFrame? {
        while !stopped.locked({ isStopped }) {
            guard try camera.waitForFrame(milliseconds: 100) else { continue }
            let converted = try camera.withNextFrame { bytes, info in
                info.isCorrupt
                    ? nil
                    : RawFrameConversion.convert(
                        bytes, format: format, width: width, height: height, bytesPerLine: camera.bytesPerLine,
                        time: info.timestamp)
            }
            if let frame = converted ?? nil { return frame }
        }
        return nil
    }

    public func stop() { stopped.locked { isStopped = true } }

    /// Frames the driver dropped so far (gaps in its sequence numbers).
    public var droppedFrames: Int { camera.droppedFrames }
}

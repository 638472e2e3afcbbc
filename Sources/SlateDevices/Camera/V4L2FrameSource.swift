import SlateCore
import SlateSystem
import SystemPackage

/// Frames from a V4L2 camera for the recorder: the mode the seed's rule picks,
/// streamed with 4 buffers, each frame stamped with the driver's capture time.
/// Raw formats are converted to I420; compressed ones (MJPEG, H.264) come as the
/// camera sends them, to pass through, or (MJPEG without pass-through, when the
/// camera has no raw format) to decode.
public final class V4L2FrameSource: FrameSource {
    public let camera: V4L2Camera
    public let width: Int
    public let height: Int
    public let fps: FrameRate
    /// libav's codec name for a compressed format, nil for raw frames.
    public let codec: String?
    /// The compressed frames go into the take as they come.
    public let passesThrough: Bool
    public let color: ColorTags
    /// What was chosen and why, for the log.
    public let choice: String
    private let pixelFormat: FourCC

    /// Why a camera cannot feed the recorder.
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    public init(path: String, fps: FrameRate, maxSize: (width: Int, height: Int)? = nil, passThrough: Bool = false) throws {
        camera = try V4L2Camera(path: path)
        let modes = try camera.modes().filter {
            FourCC.encodable.contains($0.pixelFormat) || V4L2FrameSource.codecs[$0.pixelFormat] != nil
        }
        let selection = FormatSelection(fps: fps, maxSize: maxSize, passThrough: passThrough)
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
        pixelFormat = set.mode.pixelFormat
        codec = V4L2FrameSource.codecs[pixelFormat]
        passesThrough = picked.passesThrough
        // Passed through, frames are as the camera states (JPEG as JFIF is); converted, libswscale
        // makes limited-range YUV of RGB and of decoded JPEG, and keeps YUV's numbers.
        let isRGB = pixelFormat.isRGB
        let stated = codec == "mjpeg" ? camera.color.jpeg : camera.color
        color = passesThrough || !(isRGB || codec != nil) ? stated : stated.convertedToLimitedYUV(fromRGB: isRGB)
        self.fps = FrameRate(interval: set.interval)?.standard ?? fps
        reason += "; the driver set \(set.mode.formatName) \(width)x\(height) at \(set.interval.fpsText) fps"
        choice = reason
    }

    /// The compressed formats Slate passes through or decodes, by libav codec name.
    static let codecs: [FourCC: String] = [.mjpeg: "mjpeg", .jpeg: "mjpeg", .h264: "h264"]

    public func next(orMail mail: FileDescriptor) throws -> SourceRead {
        while true {
            switch try camera.waitForFrame(orMail: mail) {
            case .mail: return .mail
            case .controls: return .controls(try camera.controlChanges())
            case .timedOut: continue
            case .frame: break
            }
            let captured = try camera.withNextFrame { bytes, info -> CameraFrame? in
                guard !info.isCorrupt else { return nil }
                if codec != nil {
                    let isKeyframe = codec == "mjpeg" || info.isKeyframe
                    return .compressed(CompressedFrame(data: [UInt8](bytes), time: info.timestamp, isKeyframe: isKeyframe))
                }
                // Converted on the recording thread: the buffer goes back to the driver at once.
                return .packed(
                    PackedFrame(
                        bytes: [UInt8](bytes), format: pixelFormat, width: width, height: height,
                        bytesPerLine: camera.bytesPerLine, time: info.timestamp))
            }
            if let capture = captured ?? nil { return .frame(capture) }
        }
    }

    public func close() { camera.close() }

    public func adopt() { camera.adopt() }

    /// Frames the driver dropped so far (gaps in its sequence numbers).
    public var droppedFrames: Int { camera.droppedFrames }
}

import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// Which camera to open: a position and a rate, by the profile's camera settings.
public struct CameraOpening: Sendable {
    public var position: CameraPosition
    public var fps: FrameRate
    public var spec: CameraSpec
    /// `--camera`: a device path or `testpattern` instead of the profile's candidates.
    public var override: String?

    public init(position: CameraPosition, fps: FrameRate, spec: CameraSpec, override: String?) {
        self.position = position
        self.fps = fps
        self.spec = spec
        self.override = override
    }

    /// The candidates tried for the position, in order.
    public var candidates: [String] {
        if let override { return [override] }
        if let listed = spec.candidates[position], !listed.isEmpty { return listed }
        return position == .back ? ["/dev/video*"] : []
    }

    /// The same camera settings at another position and rate.
    public func with(position: CameraPosition, fps: FrameRate) -> CameraOpening {
        CameraOpening(position: position, fps: fps, spec: spec, override: override)
    }
}

/// Why the camera could not be opened.
public struct CameraOpenFailure: Error, CustomStringConvertible {
    public var description: String
}

/// A camera streaming, as the camera session holds it.
struct OpenedCamera {
    var source: FrameSource
    /// The V4L2 device behind `source`; nil for the test pattern.
    var camera: V4L2Camera?
    /// What the take pipeline needs to record it.
    var stream: TakeRecorder.Stream
    /// The camera's zoom control, when zoom is done by the camera.
    var zoomControl: CameraControl?
    var facts: CameraFacts
}

/// Opens cameras on the camera session's thread: picks the first candidate
/// present, sets it up, chooses mirroring and zoom by its controls, and the
/// encoder by short probes of each (once per size and rate).
public final class CameraOpener {
    /// Test-pattern size when the profile sets no `max-size`.
    static let testPatternSize = (width: 1920, height: 1080)

    private let log: Logger
    /// Measures an encoder at a size and rate for the probe (`EncoderChoice.Measure`):
    /// its speed, CPU and the peak memory measuring it took; nil to measure in this process.
    private let measureEncoder: EncoderChoice.Measure?
    /// Encoders picked per size and rate, so a reopened camera is not probed again.
    private var encoders: [String: String] = [:]
    /// Why each hardware encoder's device is missing (nil: there), looked for once.
    private var missingDevices: [String: String?] = [:]
    /// The test pattern's clock.
    private let clock: any RigClock

    public init(
        logger: Logger, measureEncoder: EncoderChoice.Measure? = nil,
        clock: any RigClock = SystemClock()
    ) {
        log = logger
        self.measureEncoder = measureEncoder
        self.clock = clock
    }

    /// Whether one of the candidates for `opening` is among the cameras `present`.
    func isPresent(_ opening: CameraOpening, among present: [CameraCandidates.Present]) -> Bool {
        CameraCandidates.pick(opening.candidates, present: present) != nil
    }

    /// Opens the first candidate for `opening` among the cameras `present`.
    func open(
        _ opening: CameraOpening, present: [CameraCandidates.Present] = CameraDirectory.present()
    ) throws(CameraOpenFailure) -> OpenedCamera {
        let spec = opening.spec
        let listed = opening.candidates
        guard let choice = CameraCandidates.pick(listed, present: present) else {
            let cameras = present.isEmpty ? "none" : present.map { "\($0.path) (\($0.card))" }.joined(separator: ", ")
            throw CameraOpenFailure(
                description: "no \(opening.position.rawValue) camera: none of \(listed.joined(separator: ", ")) is present "
                    + "(cameras present: \(cameras))")
        }
        let source: FrameSource
        var camera: V4L2Camera?
        let name: String
        do {
            switch choice {
            case .testPattern:
                let size = spec.maxSize ?? Self.testPatternSize
                source = TestPatternSource(width: size.width, height: size.height, fps: opening.fps, clock: clock)
                name = "testpattern"
            case .device(let path):
                let opened = try V4L2FrameSource(
                    path: path, fps: opening.fps, maxSize: spec.maxSize, passThrough: spec.passthrough)
                log.info("\(path) (\(opened.camera.card)): \(opened.choice)")
                source = opened
                camera = opened.camera
                name = "\(path) (\(opened.camera.card))"
            }
        } catch {
            throw CameraOpenFailure(description: "\(error)")
        }
        let mirrored = spec.mirror ?? (opening.position == .front)
        var softwareMirror = mirrored
        if let camera, (try? camera.control(.hflip)) != nil, (try? camera.set(.hflip, mirrored ? 1 : 0)) != nil {
            softwareMirror = false
        }
        let zoomControl = camera.flatMap { try? $0.control(.zoomAbsolute) }.flatMap { $0.maximum > $0.minimum ? $0 : nil }
        let passThrough = spec.passthrough && source.codec != nil
        if passThrough, softwareMirror {
            log.warning(
                "\(name) is recorded as it comes (pass-through) and has no horizontal flip control: takes are not mirrored")
        }
        let reach = zoomControl.map(Self.reach) ?? ZoomRamp.limit
        let codec =
            passThrough
            ? spec.codecs.first ?? "h264" : pickEncoder(spec.codecs, for: source.format, memoryLimit: spec.memoryLimit)
        let stream = TakeRecorder.Stream(
            format: source.format, codecs: [codec] + spec.codecs.filter { $0 != codec }, passThrough: passThrough,
            rotation: spec.orientation, mirrored: softwareMirror, preroll: spec.preroll, cameraZoom: nil,
            zoomLimit: reach, proxy: spec.proxy)
        let facts = CameraFacts(
            name: name, position: opening.position, fps: opening.fps, streamRate: source.fps, zoomLimit: reach,
            zooms: !passThrough || zoomControl != nil, hasTorch: camera.map(Self.hasTorch) ?? false)
        log.info("recording \(name) at \(source.width)x\(source.height) \(source.fps) fps")
        return OpenedCamera(source: source, camera: camera, stream: stream, zoomControl: zoomControl, facts: facts)
    }

    /// How far a camera's own zoom reaches, at most 6x: its `Zoom, Absolute`
    /// range read as focal lengths (100 to 500 is 5x, as UVC cameras have it);
    /// 6x across the range when it starts at 0 and says nothing of its scale.
    static func reach(of zoom: CameraControl) -> Double {
        guard zoom.minimum > 0 else { return ZoomRamp.limit }
        return min(ZoomRamp.limit, max(1, Double(zoom.maximum) / Double(zoom.minimum)))
    }

    /// Whether the camera has a flash LED control.
    static func hasTorch(_ camera: V4L2Camera) -> Bool {
        (try? camera.control(.flashLEDMode)) != nil
    }

    /// The encoder for `codecs` at this size and rate, picked by short
    /// probes of each (`EncoderChoice.probing`; once per size and rate).
    private func pickEncoder(_ codecs: [String], for format: SourceFormat, memoryLimit: Int) -> String {
        let (width, height, fps) = (format.width, format.height, Int(format.fps.nominal))
        let key = "\(codecs)/\(width)x\(height)@\(fps)/\(memoryLimit)"
        if let known = encoders[key] { return known }
        let missing = { (encoder: String) -> String? in
            if let known = self.missingDevices[encoder] { return known }
            let reason = EncoderDevices.missing(for: encoder)
            self.missingDevices[encoder] = reason
            return reason
        }
        guard
            let (encoder, lines) = EncoderChoice.probing(
                codecs: codecs, width: width, height: height, fps: fps, memoryLimit: memoryLimit, missing: missing,
                measure: measureEncoder)
        else {
            return codecs.first ?? "h264"
        }
        for line in lines { log.info("\(line)") }
        encoders[key] = encoder
        return encoder
    }
}

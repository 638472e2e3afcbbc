import SlateCore
import SlateDevices
import SystemPackage

@testable import SlateMedia

/// A fake MJPEG camera: the test pattern in real time, each frame encoded as a
/// JPEG with libavcodec, delivered compressed as a camera's MJPEG mode would.
final class SyntheticMJPEGSource: FrameSource {
    let pattern: TestPatternSource
    var width: Int { pattern.width }
    var height: Int { pattern.height }
    var fps: FrameRate { pattern.fps }
    let codec: String? = "mjpeg"
    var droppedFrames: Int { pattern.droppedFrames }

    init(width: Int, height: Int, fps: FrameRate) {
        pattern = TestPatternSource(width: width, height: height, fps: fps)
    }

    func next(orMail mail: FileDescriptor) throws -> SourceRead {
        guard case .frame(.raw(let frame)) = try pattern.next(orMail: mail) else { return .mail }
        let jpeg = try JPEGThumbnail.jpeg(frame, width: width, height: height, path: "synthetic MJPEG")
        return .frame(.compressed(CompressedFrame(data: jpeg, time: frame.time, isKeyframe: true)))
    }
}

/// A fake H.264 camera: the test pattern in real time, encoded with libx264
/// with a keyframe every `keyframeInterval` frames, each keyframe preceded by
/// the parameter sets in Annex B as a UVC H.264 camera sends them (the muxer's
/// extradata must be found in the frames).
final class SyntheticH264Source: FrameSource {
    let pattern: TestPatternSource
    let encoder: VideoEncoder
    var width: Int { pattern.width }
    var height: Int { pattern.height }
    var fps: FrameRate { pattern.fps }
    let codec: String? = "h264"
    var droppedFrames: Int { pattern.droppedFrames }
    let keyframeInterval: Int64
    private var index: Int64 = 0

    init(width: Int, height: Int, fps: FrameRate, keyframeInterval: Int64) throws {
        self.keyframeInterval = keyframeInterval
        pattern = TestPatternSource(width: width, height: height, fps: fps)
        encoder = try VideoEncoder(codecs: ["libx264"], width: width, height: height, fps: fps)
    }

    func next(orMail mail: FileDescriptor) throws -> SourceRead {
        guard case .frame(.raw(let frame)) = try pattern.next(orMail: mail) else { return .mail }
        defer { index += 1 }
        let packets = try encoder.encode(frame, pts: index, keyframe: index % keyframeInterval == 0)
        guard let packet = packets.first else { return try next(orMail: mail) }
        let data = packet.isKeyframe ? encoder.parameters.extradata + packet.data : packet.data
        return .frame(.compressed(CompressedFrame(data: data, time: frame.time, isKeyframe: packet.isKeyframe)))
    }
}

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
    var fps: Int { pattern.fps }
    let codec: String? = "mjpeg"
    var droppedFrames: Int { pattern.droppedFrames }

    init(width: Int, height: Int, fps: Int) {
        pattern = TestPatternSource(width: width, height: height, fps: fps)
    }

    func next(orMail mail: FileDescriptor) throws -> SourceRead {
        guard case .frame(.raw(let frame)) = try pattern.next(orMail: mail) else { return .mail }
        let jpeg = try JPEGThumbnail.jpeg(frame, width: width, height: height, path: "synthetic MJPEG")
        return .frame(.compressed(CompressedFrame(data: jpeg, time: frame.time, isKeyframe: true)))
    }
}

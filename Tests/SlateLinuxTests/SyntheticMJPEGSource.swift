import SlateCore

@testable import SlateLinux

/// A fake MJPEG camera: the test pattern in real time, each frame encoded as a
/// JPEG with libavcodec, delivered compressed as a camera's MJPEG mode would.
final class SyntheticMJPEGSource: FrameSource, @unchecked Sendable {
    let pattern: TestPatternSource
    var width: Int { pattern.width }
    var height: Int { pattern.height }
    var fps: Int { pattern.fps }
    let codec: String? = "mjpeg"
    var droppedFrames: Int { pattern.droppedFrames }

    init(width: Int, height: Int, fps: Int) {
        pattern = TestPatternSource(width: width, height: height, fps: fps)
    }

    func nextCapture() throws -> Capture? {
        guard let frame = pattern.nextFrame() else { return nil }
        let jpeg = try JPEGThumbnail.jpeg(frame, width: width, height: height, path: "synthetic MJPEG")
        return .compressed(CompressedFrame(data: jpeg, time: frame.time, isKeyframe: true))
    }

    func stop() { pattern.stop() }
}

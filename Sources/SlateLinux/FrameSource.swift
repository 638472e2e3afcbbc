import Glibc
import SlateCore

/// Where a recorder's frames come from: a camera or the test pattern.
public protocol FrameSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var fps: Int { get }
    /// The next frame, stamped with its capture time on CLOCK_MONOTONIC; nil
    /// when the source has ended or was stopped.
    func nextFrame() throws -> VideoFrame?
    /// Makes `nextFrame` return nil from now on (from any thread).
    func stop()
    /// Frames lost so far (the camera's sequence gaps), read on the recording thread.
    var droppedFrames: Int { get }
}

/// The test pattern in real time: a frame every 1/fps on the monotonic clock,
/// with a visible frame counter and timestamp.
public final class TestPatternSource: FrameSource, @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let fps: Int
    private let pattern: TestPattern
    private let start = MonotonicClock.now()
    private var index = 0
    private let stopped = Monitor()
    private var isStopped = false

    public init(width: Int, height: Int, fps: Int) {
        self.width = width
        self.height = height
        self.fps = fps
        pattern = TestPattern(width: width, height: height)
    }

    public func nextFrame() -> VideoFrame? {
        let due = Instant(microseconds: start.microseconds + Int64(index) * 1_000_000 / Int64(fps))
        MonotonicClock.sleep(until: due)
        guard !stopped.locked({ isStopped }) else { return nil }
        defer { index += 1 }
        return pattern.frame(index: index, time: MonotonicClock.now())
    }

    public func stop() { stopped.locked { isStopped = true } }

    /// The test pattern never loses a frame: a late frame is still made.
    public var droppedFrames: Int { 0 }
}

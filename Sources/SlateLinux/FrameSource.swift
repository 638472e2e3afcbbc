import SlateCore

/// Where a recorder's frames come from: a camera or the test pattern.
public protocol FrameSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var fps: Int { get }
    /// libav's name for the codec of the compressed frames the source yields
    /// (`mjpeg`, `h264`), or nil when it yields raw I420 frames.
    var codec: String? { get }
    /// The next frame, stamped with its capture time on CLOCK_MONOTONIC; nil
    /// when the source has ended or was stopped.
    func nextCapture() throws -> Capture?
    /// Makes `nextCapture` return nil from now on (from any thread).
    func stop()
    /// Releases the device, once `nextCapture` will not be called again.
    func close()
    /// Frames lost so far (the camera's sequence gaps), read on the recording thread.
    var droppedFrames: Int { get }
}

extension FrameSource {
    public func close() {}
}

/// A source of raw I420 frames.
public protocol RawFrameSource: FrameSource {
    /// The next frame, stamped with its capture time on CLOCK_MONOTONIC; nil
    /// when the source has ended or was stopped.
    func nextFrame() throws -> VideoFrame?
}

extension RawFrameSource {
    public var codec: String? { nil }

    public func nextCapture() throws -> Capture? { try nextFrame().map(Capture.raw) }
}

/// The test pattern in real time: a frame every 1/fps on the monotonic clock,
/// with a visible frame counter and timestamp.
///
/// Like a camera streaming into a few buffers, it captures on schedule whether
/// or not the recorder keeps up: a frame is stamped with the time it was due,
/// and frames due while all buffers were full are dropped (and counted).
public final class TestPatternSource: RawFrameSource, @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let fps: Int
    /// Frames a late reader still gets, as with a camera's buffers.
    public static let bufferCount = 4
    private let pattern: TestPattern
    private let start = MonotonicClock.now()
    private var index: Int64 = 0
    private var dropped = 0
    private let stopped = Monitor()
    private var isStopped = false

    public init(width: Int, height: Int, fps: Int) {
        self.width = width
        self.height = height
        self.fps = fps
        pattern = TestPattern(width: width, height: height)
    }

    public func nextFrame() -> VideoFrame? {
        let captured = (MonotonicClock.now().microseconds - start.microseconds) * Int64(fps) / 1_000_000 + 1
        let missed = captured - index - Int64(TestPatternSource.bufferCount)
        if missed > 0 {
            dropped += Int(missed)
            index += missed
        }
        let due = time(of: index)
        MonotonicClock.sleep(until: due)
        guard !stopped.locked({ isStopped }) else { return nil }
        defer { index += 1 }
        return pattern.frame(index: Int(index), time: due)
    }

    public func stop() { stopped.locked { isStopped = true } }

    /// Frames due while the reader was more than `bufferCount` frames behind.
    public var droppedFrames: Int { dropped }

    private func time(of index: Int64) -> Instant {
        Instant(microseconds: start.microseconds + index * 1_000_000 / Int64(fps))
    }
}

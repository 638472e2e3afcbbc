import SlateCore
import SlateSystem
import SystemPackage

/// What waiting on a frame source brought.
public enum SourceRead {
    case frame(CameraFrame)
    /// The camera's owner was sent something.
    case mail
    /// The driver reported control changes (a camera whose control events were subscribed).
    case controls([CameraControlChange])
    /// The source has ended.
    case ended
}

/// Where a recorder's frames come from: a camera or the test pattern. A source
/// belongs to the thread that reads it (the camera session's).
public protocol FrameSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var fps: FrameRate { get }
    /// libav's name for the codec of the compressed frames the source yields
    /// (`mjpeg`, `h264`), or nil when it yields raw I420 frames.
    var codec: String? { get }
    /// The colours the frames are, as the recorder gets them.
    var color: ColorTags { get }
    /// Makes the calling thread the source's only user (a camera moved to its session's thread).
    func adopt()
    /// The next frame, stamped with its capture time on CLOCK_MONOTONIC, or
    /// `mail` as soon as `mail` (a mailbox's bell) is readable, or control
    /// changes as soon as the driver reports them.
    func next(orMail mail: FileDescriptor) throws -> SourceRead
    /// Releases the device.
    func close()
    /// Frames lost so far (the camera's sequence gaps).
    var droppedFrames: Int { get }
}

extension FrameSource {
    public func close() {}

    public func adopt() {}

    public var color: ColorTags { .bt709 }

    /// What the recorder needs to know of the source's frames.
    public var format: SourceFormat { SourceFormat(width: width, height: height, fps: fps, codec: codec, color: color) }
}

/// The test pattern in real time: a frame every frame interval on its clock (the
/// monotonic clock, or a test's virtual one), with a visible frame counter
/// and timestamp.
///
/// Like a camera streaming into a few buffers, it captures on schedule whether
/// or not the recorder keeps up: a frame is stamped with the time it was due,
/// and frames due while all buffers were full are dropped (and counted).
public final class TestPatternSource: FrameSource {
    public let width: Int
    public let height: Int
    public let fps: FrameRate
    public let codec: String? = nil
    public let color = ColorTags.bt601
    /// Frames a late reader still gets, as with a camera's buffers.
    public static let bufferCount = 4
    private let pattern: TestPattern
    private let clock: any RigClock
    private let start: Instant
    private var index: Int64 = 0
    private var dropped = 0

    public init(width: Int, height: Int, fps: FrameRate, clock: any RigClock = SystemClock()) {
        self.clock = clock
        start = clock.now()
        self.width = width
        self.height = height
        self.fps = fps
        pattern = TestPattern(width: width, height: height)
    }

    /// The next frame, waiting for the time it is due.
    public func nextFrame() -> VideoFrame {
        let due = nextDue()
        clock.sleep(until: due)
        defer { index += 1 }
        return pattern.frame(index: Int(index), time: due)
    }

    public func next(orMail mail: FileDescriptor) throws -> SourceRead {
        clock.wait(for: [mail], until: nextDue()) ? .mail : .frame(.raw(nextFrame()))
    }

    /// When the next frame is due; frames due while every buffer was full are dropped.
    private func nextDue() -> Instant {
        let captured = (clock.now().microseconds - start.microseconds) * fps.frames / (fps.seconds * 1_000_000) + 1
        let missed = captured - index - Int64(TestPatternSource.bufferCount)
        if missed > 0 {
            dropped += Int(missed)
            index += missed
        }
        return time(of: index)
    }

    /// Frames due while the reader was more than `bufferCount` frames behind.
    public var droppedFrames: Int { dropped }

    private func time(of index: Int64) -> Instant {
        Instant(microseconds: start.microseconds + fps.microseconds(toFrame: index))
    }
}

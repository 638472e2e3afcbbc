import CSlateShim
import Glibc
import SlateCore

/// Reads a frame source on a thread of its own, so the camera's buffers are
/// always returned at once, and hands the captures to the recording thread
/// through a `CaptureBacklog`: a recording thread that falls behind loses the
/// oldest frames (a take counts them as the gaps they leave), never the first
/// frame of a take.
final class CaptureQueue: @unchecked Sendable {
    /// Frames held for the recording thread: at 1080p, 3 MB each.
    static let capacity = 4
    /// The capture thread's nice value, when it may have it.
    static let niceness: Int32 = -10

    private let source: FrameSource
    private let shared = Monitor()
    private var backlog = CaptureBacklog<Capture>(capacity: CaptureQueue.capacity)
    private var ended = false
    private var failure: String?
    private var thread: pthread_t?

    init(source: FrameSource) throws(OperationError) {
        self.source = source
        switch BackgroundThread.spawn({ [self] in capture() }) {
        case .success(let handle): thread = handle
        case .failure(let error): throw error
        }
    }

    /// The next capture, waiting for it; nil once the source has ended and every
    /// capture was handed out.
    func next() -> Capture? {
        shared.locked {
            while backlog.items.isEmpty && !ended { shared.wait() }
            return backlog.pop()?.item
        }
    }

    /// A take starts at `time`: its first frame is not dropped.
    func protect(from time: Instant) { shared.locked { backlog.protect(from: time) } }

    /// Why the source failed (a camera unplugged), once it has.
    var failed: String? { shared.locked { failure } }

    /// Stops the source, joins the thread and releases the device; captures
    /// still queued are still handed out.
    func stop() {
        source.stop()
        let joining: pthread_t? = shared.locked {
            defer { thread = nil }
            return thread
        }
        if let joining {
            pthread_join(joining, nil)
            source.close()
        }
    }

    private func capture() {
        // Ahead of the encoder's threads when the machine is busy, where allowed
        // (root, CAP_SYS_NICE or RLIMIT_NICE); otherwise at the usual priority.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(slate_gettid()), Self.niceness)
        var reason: String?
        while true {
            do {
                guard let capture = try source.nextCapture() else { break }
                shared.locked {
                    backlog.push(capture, at: capture.time)
                    shared.broadcast()
                }
            } catch {
                reason = "\(error)"
                break
            }
        }
        shared.locked {
            ended = true
            failure = reason
            shared.broadcast()
        }
    }
}

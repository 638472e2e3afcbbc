import SlateCore
import SystemPackage

/// Writes lines to a descriptor (standard output) from a thread of its own,
/// so a reader that is slow or stopped never holds up the thread that makes
/// them: at most `queueLimit` bytes wait, and lines past that are dropped and
/// counted (the first drop is said once on standard error, the count at the
/// end). Each write is of at most PIPE_BUF bytes once `poll` says there is
/// room, so the thread never blocks in `write` and `close` ends within its grace.
public final class LineWriter: Sendable {
    /// The most bytes waiting to be written, unless told otherwise.
    public static let defaultQueueLimit = 1 << 20
    /// How long `close` lets the reader take what waits.
    public static let closingGrace = Duration.seconds(2)

    private struct Queue {
        var bytes: [UInt8] = []
        var dropped = 0
        var closing = false
    }

    private let mailbox: Mailbox<Queue>
    private let thread: WorkerThread
    private let queueLimit: Int

    /// Starts the thread writing to `fd`.
    public init(fd: FileDescriptor = .standardOutput, queueLimit: Int = defaultQueueLimit) throws(OperationError) {
        let mailbox = try Mailbox(Queue())
        self.mailbox = mailbox
        self.queueLimit = queueLimit
        thread = try WorkerThread(name: "slate-output") { Self.run(fd: fd, mailbox: mailbox) }
    }

    /// A writer dropped without `close` (its owner failed to start) still
    /// ends its thread, which the thread's own deinit then joins.
    deinit { mailbox.post { $0.closing = true } }

    /// Queues `lines` (each ending in a newline), or drops and counts them when the queue is full.
    public func write(_ bytes: [UInt8], lines: Int) {
        let firstDrop = mailbox.post { queue -> Bool in
            guard queue.bytes.count + bytes.count <= queueLimit else {
                queue.dropped += lines
                return queue.dropped == lines
            }
            queue.bytes += bytes
            return false
        }
        if firstDrop {
            OutputStream.writeError("slate: standard output is not being read: report lines are dropped (counted at exit)")
        }
    }

    /// How many lines were dropped so far.
    public var dropped: Int { mailbox.read { $0.dropped } }

    /// Writes what waits (within `closingGrace`) and ends the thread; says
    /// how many lines were dropped, if any.
    public func close() {
        mailbox.post { $0.closing = true }
        thread.join()
        let dropped = self.dropped
        if dropped > 0 { OutputStream.writeError("slate: \(dropped) report line(s) dropped: standard output was not read") }
    }

    /// Takes a queue's worth at a time and writes it as the reader makes
    /// room; a reader gone (EPIPE, a hang-up) ends the writes quietly.
    private static func run(fd: FileDescriptor, mailbox: Mailbox<Queue>) {
        var pending: [UInt8] = []
        var offset = 0
        var broken = false
        var giveUp: Instant?
        while true {
            if offset == pending.count {
                let (more, closing) = mailbox.collect { queue in
                    defer { queue.bytes.removeAll(keepingCapacity: true) }
                    return (queue.bytes, queue.closing)
                }
                (pending, offset) = (broken ? [] : more, 0)
                if pending.isEmpty {
                    if closing { return }
                    mailbox.wait()
                    continue
                }
            }
            if giveUp == nil, mailbox.read({ $0.closing }) { giveUp = MonotonicClock.now() + closingGrace }
            if let giveUp, MonotonicClock.now() >= giveUp {
                let unwritten = pending[offset...].count { $0 == 0x0A }
                mailbox.post { $0.dropped += unwritten + $0.bytes.count { $0 == 0x0A } }
                return
            }
            guard case .success(let ready) = Syscall.pollEvents([(fd, .output)], timeout: 100), let events = ready.first,
                !events.isEmpty
            else { continue }
            var written = Result<Int, Errno>.failure(.brokenPipe)
            if events.isDisjoint(with: [.error, .hangUp]) {
                let end = min(pending.count, offset + 4096)
                written = pending[offset..<end].withUnsafeBytes { raw in errnoResult { try fd.write(raw) } }
            }
            switch written {
            case .success(let count): offset += count
            case .failure(.resourceTemporarilyUnavailable), .failure(.interrupted): break
            case .failure:
                broken = true
                offset = pending.count
            }
        }
    }
}

import Synchronization
import SystemPackage

/// What a worker is sent, from any thread: `Contents` under a lock, and an
/// eventfd that is readable once something was posted, so the worker waits
/// for its mail alone (`wait`) or together with its own descriptors (`bell`).
public final class Mailbox<Contents: Sendable>: Sendable {
    private let contents: Mutex<Contents>
    /// Readable once something was posted since the last `collect`.
    public let bell: FileDescriptor

    public init(_ empty: Contents) throws(OperationError) {
        contents = Mutex(empty)
        bell = try Syscall.eventDescriptor().value("eventfd", to: "create a worker's mailbox")
    }

    deinit { try? bell.close() }

    /// Changes the contents (adds a letter) and wakes the worker.
    @discardableResult
    public func post<Result: Sendable>(_ change: (inout Contents) -> Result) -> Result {
        let result = contents.withLock { change(&$0) }
        _ = Syscall.addToCounter(bell, 1)
        return result
    }

    /// Takes what was posted (on the worker's thread), without waiting.
    public func collect<Result: Sendable>(_ take: (inout Contents) -> Result) -> Result {
        _ = Syscall.readCounter(bell)
        return contents.withLock { take(&$0) }
    }

    /// Reads the contents without taking anything (from any thread).
    public func read<Result: Sendable>(_ look: (Contents) -> Result) -> Result {
        contents.withLock { look($0) }
    }

    /// Waits until something is posted or `timeout` (milliseconds, -1 for
    /// ever) passes.
    public func wait(timeout: Int32 = -1) {
        _ = Syscall.pollInputs([bell], timeout: timeout)
    }
}

extension Mailbox {
    /// A mailbox of letters, taken in the order they were posted.
    public convenience init<Letter>() throws(OperationError) where Contents == [Letter] {
        try self.init([])
    }

    /// Posts one letter.
    public func post<Letter>(_ letter: Letter) where Contents == [Letter] {
        post { $0.append(letter) }
    }

    /// The letters posted since the last call, without waiting.
    public func letters<Letter>() -> [Letter] where Contents == [Letter] {
        collect { letters in
            defer { letters.removeAll() }
            return letters
        }
    }
}

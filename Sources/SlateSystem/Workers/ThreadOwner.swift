/// Which thread a resource belongs to: the one that made it, or that adopted
/// it since. A debug build stops Slate at a use from any other thread (`check`),
/// so a test that makes a resource be used off its owner's thread fails.
package struct ThreadOwner {
    package private(set) var thread = Syscall.threadID

    package init() {}

    /// Makes the calling thread the owner.
    package mutating func adopt() { thread = Syscall.threadID }

    /// Whether the calling thread is the owner.
    package var isCurrent: Bool { Syscall.threadID == thread }

    /// Stops a debug build when the calling thread is not the owner of `what`.
    package func check(_ what: @autoclosure () -> String, _ function: String = #function) {
        assert(isCurrent, "\(what()): \(function) called on thread \(Syscall.threadID); it belongs to thread \(thread)")
    }
}

/// Runs `body` with every signal blocked on this thread, then restores the mask.
/// Threads a library starts inside `body` (libx264's and libx265's workers)
/// inherit the full mask, so a process-directed SIGINT or SIGTERM never lands
/// on one of them: it goes to a thread that handles it, or reads it through a signalfd.
package func withSignalsBlocked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    let saved = try? Syscall.blockAllSignals().get()
    defer { if let saved { Syscall.restoreSignalMask(saved) } }
    return try body()
}

import CSlateShim

/// The process's heap as the C library keeps it.
public enum HeapMemory {
    /// Hands memory freed in every malloc arena back to the system
    /// (`malloc_trim`): after a burst on a thread of its own (an export's
    /// decoders, encoders and buffers), glibc would otherwise keep that
    /// thread's arena at its largest for the life of the process.
    public static func returnFreed() { slate_return_freed_memory() }
}

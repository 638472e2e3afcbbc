/// Picks the encoder from a start-up speed probe: the first in the profile's
/// preference order that sustains the frame rate with a margin and fits the
/// memory Slate allows itself; otherwise the fastest that fits, with a warning.
/// Each skipped encoder gets a reason for the log.
public enum EncoderChoice {
    /// One encoder as probed: frames per second achieved at the chosen size, or
    /// nil when it could not be opened; and the peak memory of the process that
    /// probed it, when known.
    public struct Probe: Equatable, Sendable {
        public var codec: String
        public var encoder: String
        public var framesPerSecond: Double?
        /// Peak resident memory while probing, in bytes.
        public var memory: Int?

        public init(codec: String, encoder: String, framesPerSecond: Double?, memory: Int? = nil) {
            self.codec = codec
            self.encoder = encoder
            self.framesPerSecond = framesPerSecond
            self.memory = memory
        }
    }

    /// The most memory a recording process may take (peak resident set), so a
    /// rig's computer keeps room: libx265 alone takes over 100 MB at 1080p.
    public static let memoryLimit = 150 * 1024 * 1024

    /// Headroom over the camera's rate, for a machine that is also capturing.
    public static let margin = 1.2

    /// The chosen probe and the log lines explaining the choice; nil when no encoder opened.
    public static func pick(
        _ probes: [Probe], fps: Int, size: String, memoryLimit: Int = EncoderChoice.memoryLimit
    ) -> (probe: Probe, log: [String])? {
        var log: [String] = []
        let needed = Double(fps) * margin
        var fitting: [Probe] = []
        for probe in probes {
            guard let speed = probe.framesPerSecond else {
                log.append("\(probe.encoder) (\(probe.codec)) cannot be opened here")
                continue
            }
            if let memory = probe.memory, memory > memoryLimit {
                log.append(
                    "\(probe.encoder) (\(probe.codec)) needs \(megabytes(memory)) MB at \(size), over the "
                        + "\(megabytes(memoryLimit)) MB a recording may take")
                continue
            }
            fitting.append(probe)
            if speed >= needed {
                log.append("\(probe.encoder) (\(probe.codec)) encodes \(size) at \(Int(speed)) fps: using it")
                return (probe, log)
            }
            log.append(
                "\(probe.encoder) (\(probe.codec)) encodes \(size) at \(Int(speed)) fps, below the \(Int(needed)) fps needed for \(fps) fps"
            )
        }
        let candidates = fitting.isEmpty ? probes.filter { $0.framesPerSecond != nil } : fitting
        guard let fastest = candidates.max(by: { $0.framesPerSecond! < $1.framesPerSecond! }) else { return nil }
        log.append(
            fitting.isEmpty
                ? "no encoder fits in \(megabytes(memoryLimit)) MB at \(size); using the fastest, \(fastest.encoder)"
                : "no encoder sustains \(fps) fps at \(size); using the fastest, \(fastest.encoder): frames may be dropped")
        return (fastest, log)
    }

    private static func megabytes(_ bytes: Int) -> Int { (bytes + 512 * 1024) / (1024 * 1024) }
}

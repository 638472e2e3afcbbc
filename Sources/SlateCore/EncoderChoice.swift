/// Picks the encoder from a start-up speed probe: the first in the profile's
/// preference order that sustains the frame rate with a margin; otherwise the
/// fastest, with a warning. Each skipped encoder gets a reason for the log.
public enum EncoderChoice {
    /// One encoder as probed: frames per second achieved at the chosen size, or
    /// nil when it could not be opened.
    public struct Probe: Equatable, Sendable {
        public var codec: String
        public var encoder: String
        public var framesPerSecond: Double?

        public init(codec: String, encoder: String, framesPerSecond: Double?) {
            self.codec = codec
            self.encoder = encoder
            self.framesPerSecond = framesPerSecond
        }
    }

    /// Headroom over the camera's rate, for a machine that is also capturing.
    public static let margin = 1.2

    /// The chosen probe and the log lines explaining the choice; nil when no encoder opened.
    public static func pick(_ probes: [Probe], fps: Int, size: String) -> (probe: Probe, log: [String])? {
        var log: [String] = []
        let needed = Double(fps) * margin
        for probe in probes {
            guard let speed = probe.framesPerSecond else {
                log.append("\(probe.encoder) (\(probe.codec)) cannot be opened here")
                continue
            }
            if speed >= needed {
                log.append("\(probe.encoder) (\(probe.codec)) encodes \(size) at \(Int(speed)) fps: using it")
                return (probe, log)
            }
            log.append(
                "\(probe.encoder) (\(probe.codec)) encodes \(size) at \(Int(speed)) fps, below the \(Int(needed)) fps needed for \(fps) fps")
        }
        guard let fastest = probes.filter({ $0.framesPerSecond != nil }).max(by: { $0.framesPerSecond! < $1.framesPerSecond! })
        else { return nil }
        log.append("no encoder sustains \(fps) fps at \(size); using the fastest, \(fastest.encoder): frames may be dropped")
        return (fastest, log)
    }
}

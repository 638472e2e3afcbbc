/// Picks the encoder from measured probes: among those that sustain the
/// frame rate with a margin and fit the memory Slate allows itself, the
/// profile's first codec that has one, and of its encoders the one that
/// costs the least CPU (a GPU's or SoC's encoder over libx264 when both keep
/// up), then the least memory; when none keeps up, the fastest that fits,
/// with a warning. Each probe gets a line for the log saying what was measured
/// and why it was or was not used.
public enum EncoderChoice {
    /// One encoder as probed at the chosen size: frames per second achieved,
    /// nil when it could not be opened (and why); the CPU it took per second
    /// of video at the camera's rate; and the peak memory of the process that
    /// probed it, when known.
    public struct Probe: Equatable, Sendable {
        public var codec: String
        public var encoder: String
        public var framesPerSecond: Double?
        /// Peak resident memory while probing, in bytes.
        public var memory: Int?
        /// Cores busy encoding the camera's rate (0.25: a quarter of one core).
        public var cpu: Double?
        /// Why it could not be opened.
        public var failure: String?

        public init(
            codec: String, encoder: String, framesPerSecond: Double?, memory: Int? = nil, cpu: Double? = nil,
            failure: String? = nil
        ) {
            self.codec = codec
            self.encoder = encoder
            self.framesPerSecond = framesPerSecond
            self.memory = memory
            self.cpu = cpu
            self.failure = failure
        }
    }

    /// What became of a probe.
    public enum Verdict: String, Sendable {
        case picked, unavailable, tooSlow = "too slow", tooBig = "over the memory limit", passedOver = "passed over"
    }

    /// The most memory a recording process may take (peak resident set), so a
    /// rig's computer keeps room: libx265 alone takes over 100 MB at 1080p.
    public static let memoryLimit = 150 * 1024 * 1024

    /// Headroom over the camera's rate, for a machine that is also capturing.
    public static let margin = 1.2

    /// CPU figures are compared in steps of this (cores): within one, the
    /// lighter in memory wins (a half-second probe measures no finer).
    static let cpuStep = 0.05

    /// The frames a second an encoder must sustain for `fps`.
    public static func needed(for fps: Int) -> Int { Int((Double(fps) * margin).rounded(.up)) }

    /// The chosen probe and the log lines explaining the choice; nil when no encoder opened.
    public static func pick(
        _ probes: [Probe], fps: Int, size: String, memoryLimit: Int = EncoderChoice.memoryLimit
    ) -> (probe: Probe, log: [String])? {
        let verdicts = judge(probes, fps: fps, memoryLimit: memoryLimit)
        guard let index = verdicts.firstIndex(of: .picked) else { return nil }
        let chosen = probes[index]
        var log = zip(probes, verdicts).map {
            describe($0, $1, picked: chosen, size: size, fps: fps, memoryLimit: memoryLimit)
        }
        if (chosen.memory ?? 0) > memoryLimit {
            log.append("no encoder fits in \(megabytes(memoryLimit)) MB at \(size); using the fastest, \(chosen.encoder)")
        } else if (chosen.framesPerSecond ?? 0) < Double(needed(for: fps)) {
            log.append(
                "no encoder sustains \(fps) fps at \(size); using the fastest, \(chosen.encoder): frames may be dropped")
        }
        return (chosen, log)
    }

    /// Each probe's verdict: exactly one `picked` when any opened.
    public static func judge(_ probes: [Probe], fps: Int, memoryLimit: Int = EncoderChoice.memoryLimit) -> [Verdict] {
        let needed = Double(Self.needed(for: fps))
        var verdicts = probes.map { probe -> Verdict in
            guard let speed = probe.framesPerSecond else { return .unavailable }
            if let memory = probe.memory, memory > memoryLimit { return .tooBig }
            return speed >= needed ? .passedOver : .tooSlow
        }
        let sustaining = verdicts.indices.filter { verdicts[$0] == .passedOver }
        if let firstCodec = sustaining.first.map({ probes[$0].codec }) {
            let ofCodec = sustaining.filter { probes[$0].codec == firstCodec }
            let best = ofCodec.min { cheaper(probes[$0], than: probes[$1]) }!
            verdicts[best] = .picked
            return verdicts
        }
        let opened = probes.indices.filter { probes[$0].framesPerSecond != nil }
        let fitting = opened.filter { verdicts[$0] != .tooBig }
        if let fastest = (fitting.isEmpty ? opened : fitting).max(by: {
            probes[$0].framesPerSecond! < probes[$1].framesPerSecond!
        }) {
            verdicts[fastest] = .picked
        }
        return verdicts
    }

    /// Whether `probe` costs less than `other`: less CPU (in steps of
    /// `cpuStep`), else less memory; unknown figures count as the most.
    static func cheaper(_ probe: Probe, than other: Probe) -> Bool {
        let steps = { (cpu: Double?) -> Int in cpu.map { $0.isFinite ? Int(($0 / cpuStep).rounded()) : .max } ?? .max }
        let (cpu, otherCPU) = (steps(probe.cpu), steps(other.cpu))
        if cpu != otherCPU { return cpu < otherCPU }
        return (probe.memory ?? .max) < (other.memory ?? .max)
    }

    /// The log line of one probe: what was measured, and what became of it
    /// beside the one `picked`.
    public static func describe(
        _ probe: Probe, _ verdict: Verdict, picked: Probe, size: String, fps: Int, memoryLimit: Int
    ) -> String {
        let name = "\(probe.encoder) (\(probe.codec))"
        guard let speed = probe.framesPerSecond else {
            return "\(name) cannot be opened here" + (probe.failure.map { ": \($0)" } ?? "")
        }
        var figures = "encodes \(size) at \(Int(speed)) fps"
        if let cpu = probe.cpu { figures += " with \(cores(cpu)) of a core" }
        if let memory = probe.memory { figures += ", \(megabytes(memory)) MB" }
        switch verdict {
        case .picked: return "\(name) \(figures): using it"
        case .tooBig:
            return "\(name) \(figures): over the \(megabytes(memoryLimit)) MB a recording may take"
        case .tooSlow: return "\(name) \(figures), below the \(needed(for: fps)) fps needed for \(fps) fps"
        case .passedOver where probe.codec != picked.codec:
            return "\(name) \(figures): keeps up, but the profile prefers \(picked.codec)"
        case .passedOver: return "\(name) \(figures): keeps up, but \(picked.encoder) costs less"
        case .unavailable: return "\(name) cannot be opened here"
        }
    }

    /// `0.25`: cores, to the hundredth.
    public static func cores(_ value: Double) -> String {
        let cents = Int((value * 100).rounded())
        return "\(cents / 100)." + (cents % 100 < 10 ? "0" : "") + "\(cents % 100)"
    }

    /// Bytes in whole megabytes (MiB), rounded.
    public static func megabytes(_ bytes: Int) -> Int { (bytes + 512 * 1024) / (1024 * 1024) }
}

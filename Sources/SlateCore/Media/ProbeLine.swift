/// An encoder's probe as one JSON object: `slate probe-encoder`'s output and
/// each line of `slate encoders --json`. `fps` is null and `failure` says why
/// for an encoder that cannot be opened; `cpu` is in cores at the camera's
/// rate, `memory` in bytes; `verdict` (in `slate encoders`) what became of it.
public struct ProbeLine: Codable, Hashable, Sendable {
    public var encoder: String
    public var codec: String
    public var fps: Double?
    public var cpu: Double?
    public var memory: Int?
    public var failure: String?
    public var verdict: String?

    public init(_ probe: EncoderChoice.Probe, verdict: EncoderChoice.Verdict? = nil) {
        encoder = probe.encoder
        codec = probe.codec
        fps = probe.framesPerSecond
        cpu = probe.cpu
        memory = probe.memory
        failure = probe.failure
        self.verdict = verdict?.rawValue
    }

    /// The probe it tells of.
    public var probe: EncoderChoice.Probe {
        EncoderChoice.Probe(codec: codec, encoder: encoder, framesPerSecond: fps, memory: memory, cpu: cpu, failure: failure)
    }
}

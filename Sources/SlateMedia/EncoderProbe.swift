import SlateCore
import SlateSystem

extension EncoderChoice {
    /// Measures one encoder of a codec at a size and rate: its probe.
    public typealias Measure = @Sendable (_ encoder: String, _ codec: String, _ width: Int, _ height: Int, _ fps: Int) -> Probe

    /// The encoders of `codecs`, in the profile's order of codecs, each
    /// codec's encoders in `VideoEncoder.encoderNames(for:)` order (a name
    /// that is not a codec is an encoder of its own).
    public static func candidates(for codecs: [String]) -> [(codec: String, encoder: String)] {
        codecs.flatMap { codec in VideoEncoder.encoderNames(for: codec).map { (codec, $0) } }
    }

    /// Probes the encoders of `codecs` on the test pattern at this size and
    /// picks by `pick`: every encoder of a codec is measured, and the codecs
    /// after the first whose encoders include one that keeps up are not (they
    /// could not be picked). One codec with one encoder is taken without a
    /// probe. Returns the encoder and the log lines explaining the choice.
    ///
    /// A probe opens the encoder at the recording's size, so it needs the memory
    /// the recording would (x265 alone takes over 100 MB at 1080p): a smaller
    /// probe misjudges the speed by far (x264 and x265 run over twice as fast per
    /// pixel at 960x540 as at 1080p).
    ///
    /// `measure` measures an encoder; by default in this process, without a
    /// memory figure. A daemon measures in a child process, so an encoder it
    /// rejects never adds to its memory and one that would take too much is known.
    /// `missing` says why an encoder's device is not there (`EncoderDevices`):
    /// such an encoder is not measured, and when one encoder is left, it is
    /// taken without a probe.
    public static func probing(
        codecs: [String], width: Int, height: Int, fps: Int, memoryLimit: Int = memoryLimit,
        missing: (String) -> String? = { _ in nil }, measure: Measure? = nil
    ) -> (encoder: String, log: [String])? {
        let checked = candidates(for: codecs).map { ($0, missing($0.encoder)) }
        let absent = checked.compactMap { candidate, reason in
            reason.map { Probe(codec: candidate.codec, encoder: candidate.encoder, framesPerSecond: nil, failure: $0) }
        }
        let present = checked.filter { $0.1 == nil }.map(\.0)
        let skipped = absent.map { describe($0, .unavailable, picked: $0, size: "", fps: fps, memoryLimit: memoryLimit) }
        guard present.count > 1 else { return present.first.map { ($0.encoder, skipped) } }
        let measure = measure ?? { probe(encoder: $0, codec: $1, width: $2, height: $3, fps: $4) }
        var probes: [Probe] = absent
        for (index, candidate) in present.enumerated() {
            probes.append(measure(candidate.encoder, candidate.codec, width, height, fps))
            let codecEnds = index + 1 == present.count || present[index + 1].codec != candidate.codec
            if codecEnds, probes.contains(where: keepsUp(fps, memoryLimit: memoryLimit)) { break }
        }
        return pick(probes, fps: fps, size: "\(width)x\(height)", memoryLimit: memoryLimit).map { ($0.probe.encoder, $0.log) }
    }

    /// Whether a probe sustains `fps` with the margin and fits `memoryLimit`.
    static func keepsUp(_ fps: Int, memoryLimit: Int) -> (Probe) -> Bool {
        { probe in (probe.framesPerSecond ?? 0) >= Double(needed(for: fps)) && (probe.memory ?? 0) <= memoryLimit }
    }

    /// Measures `encoder` in this process over half a second's frames (at
    /// least 10): its speed and CPU, or why it cannot be used; no memory figure.
    /// A failure's reason is libav's error code's, with the error lines libav
    /// logged meanwhile (`Cannot load libcuda.so.1`), which say more.
    public static func probe(encoder: String, codec: String, width: Int, height: Int, fps: Int) -> Probe {
        let (measured, lines) = LibAV.collecting {
            VideoEncoder.measure(encoder: encoder, width: width, height: height, fps: fps, frames: max(10, fps / 2))
        }
        switch measured {
        case .success(let measured):
            return Probe(codec: codec, encoder: encoder, framesPerSecond: measured.framesPerSecond, cpu: measured.cpu)
        case .failure(let error):
            let prefix = encoder + ": "
            let reason = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            let said = lines.isEmpty ? "" : " (libav: " + lines.joined(separator: "; ") + ")"
            return Probe(codec: codec, encoder: encoder, framesPerSecond: nil, failure: reason + said)
        }
    }
}

import SlateCore
import SlateSystem

extension EncoderChoice {
    /// Probes `codecs` in preference order on the test pattern at this size and
    /// picks the first that keeps up with `fps` (later ones are not probed), else
    /// the fastest, so a recording does not drop frames behind a slow encoder. One
    /// codec is taken without a probe. Returns the codec and the log lines
    /// explaining the choice.
    ///
    /// A probe opens the encoder at the recording's size, so it needs the memory
    /// the recording would (x265 alone takes over 100 MB at 1080p): a smaller
    /// probe misjudges the speed by far (x264 and x265 run over twice as fast per
    /// pixel at 960x540 as at 1080p).
    ///
    /// `measure` gives a codec's speed in frames per second at this size (0 when
    /// it cannot open) and, when known, the peak memory of the process that
    /// measured it; by default the probe runs in this process, without a memory
    /// figure. A daemon measures in a child process, so an encoder it rejects
    /// never adds to its memory and one that would take too much is known.
    public static func probing(
        codecs: [String], width: Int, height: Int, fps: Int, measure: ((String) -> (speed: Double, memory: Int?))? = nil
    ) -> (codec: String, log: [String])? {
        guard codecs.count > 1 else { return codecs.first.map { ($0, []) } }
        let measure = measure ?? { (probeSpeed(codec: $0, width: width, height: height, fps: fps), nil) }
        var probes: [Probe] = []
        for codec in codecs {
            let (speed, memory) = measure(codec)
            let probe = Probe(
                codec: codec, encoder: VideoEncoder.encoderNames(for: codec).first ?? codec,
                framesPerSecond: speed > 0 ? speed : nil, memory: memory)
            probes.append(probe)
            if speed >= Double(fps) * margin, (memory ?? 0) <= memoryLimit { break }
        }
        return pick(probes, fps: fps, size: "\(width)x\(height)").map { ($0.probe.codec, $0.log) }
    }

    /// Frames per second `codec` encodes at this size, over a probe of half a
    /// second's frames (at least 10).
    public static func probeSpeed(codec: String, width: Int, height: Int, fps: Int) -> Double {
        VideoEncoder.probeSpeed(codec: codec, width: width, height: height, fps: fps, frames: max(10, fps / 2))
    }
}

import SlateCore

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
    public static func probing(codecs: [String], width: Int, height: Int, fps: Int) -> (codec: String, log: [String])? {
        guard codecs.count > 1 else { return codecs.first.map { ($0, []) } }
        var probes: [Probe] = []
        for codec in codecs {
            let speed = VideoEncoder.probeSpeed(codec: codec, width: width, height: height, fps: fps, frames: max(10, fps / 2))
            probes.append(
                Probe(
                    codec: codec, encoder: VideoEncoder.encoderNames(for: codec).first ?? codec,
                    framesPerSecond: speed > 0 ? speed : nil))
            if speed >= Double(fps) * margin { break }
        }
        return pick(probes, fps: fps, size: "\(width)x\(height)").map { ($0.probe.codec, $0.log) }
    }
}

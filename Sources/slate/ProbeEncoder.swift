import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate probe-encoder`: one encoder's speed, CPU and the peak memory of the
/// process measuring it, for `slate run`, `slate record` and `slate encoders`,
/// so that the memory of an encoder they do not pick is never theirs.
struct ProbeEncoder: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print how an encoder encodes at a size, as a JSON object (used by run, record and encoders).",
        shouldDisplay: false)

    @Argument var encoder: String
    @Argument var codec: String
    @Argument var width: Int
    @Argument var height: Int
    @Argument var fps: Int

    func run() {
        var probe = EncoderChoice.probe(encoder: encoder, codec: codec, width: width, height: height, fps: fps)
        probe.memory = ProcessInfoReading.peakMemory
        print(JSONLine.encode(ProbeLine(probe)))
    }

    /// Measures `encoder` with this executable in a child process: its probe,
    /// with the peak memory of the process that measured it.
    @Sendable static func inChildProcess(encoder: String, codec: String, width: Int, height: Int, fps: Int)
        -> EncoderChoice.Probe
    {
        let argv = ["/proc/self/exe", "probe-encoder", encoder, codec, String(width), String(height), String(fps)]
        let failed = EncoderChoice.Probe(codec: codec, encoder: encoder, framesPerSecond: nil, failure: "its probe failed")
        guard let (status, output) = try? ProcessLauncher.output(of: argv) else { return failed }
        guard status == 0, let line = try? JSONLine.decode(ProbeLine.self, from: Array(output.utf8)) else {
            return EncoderChoice.Probe(
                codec: codec, encoder: encoder, framesPerSecond: nil, failure: "its probe ended with status \(status)")
        }
        return line.probe
    }
}

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

    /// How long a probe may take: a wedged driver does not hold up a camera's opening longer.
    static let timeout = Duration.seconds(20)

    /// Measures `encoder` with this executable in a child process: its probe
    /// (the last line it printed), with the peak memory of the process that
    /// measured it; or how the probe ended.
    @Sendable static func inChildProcess(encoder: String, codec: String, width: Int, height: Int, fps: Int)
        -> EncoderChoice.Probe
    {
        let argv = ["/proc/self/exe", "probe-encoder", encoder, codec, String(width), String(height), String(fps)]
        let failed = { (reason: String) in
            EncoderChoice.Probe(codec: codec, encoder: encoder, framesPerSecond: nil, failure: reason)
        }
        let ran = Result { () throws(OperationError) in try ProcessLauncher.output(of: argv, timeout: timeout) }
        guard case .success(let (status, output)) = ran else { return failed("its probe could not start") }
        if status == 128 + Signal.kill { return failed("its probe took over \(timeout) and was stopped") }
        if status > 128 { return failed("its probe was killed by signal \(status - 128)") }
        let last = output.split(separator: "\n").last.map(String.init) ?? ""
        guard status == 0, let line = try? JSONLine.decode(ProbeLine.self, from: Array(last.utf8)) else {
            return failed("its probe ended with status \(status)")
        }
        return line.probe
    }
}

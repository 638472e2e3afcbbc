import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate probe-encoder`: one encoder's speed and the peak memory of the
/// process measuring it, for `slate run` and `slate record`, so that the memory
/// of an encoder they do not pick is never theirs.
struct ProbeEncoder: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print how many frames per second an encoder encodes at a size (used by run and record).",
        shouldDisplay: false)

    @Argument var codec: String
    @Argument var width: Int
    @Argument var height: Int
    @Argument var fps: Int

    func run() {
        let speed = EncoderChoice.probeSpeed(codec: codec, width: width, height: height, fps: fps)
        print(speed, ProcessInfoReading.peakMemory)
    }

    /// Measures `codec` with this executable in a child process: frames per
    /// second (0 when it cannot) and peak memory in bytes.
    static func inChildProcess(codec: String, width: Int, height: Int, fps: Int) -> (speed: Double, memory: Int?) {
        let argv = ["/proc/self/exe", "probe-encoder", codec, String(width), String(height), String(fps)]
        guard let (status, output) = try? ProcessLauncher.output(of: argv), status == 0 else { return (0, nil) }
        let fields = output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        return (fields.first.flatMap { Double($0) } ?? 0, fields.count > 1 ? Int(fields[1]) : nil)
    }
}

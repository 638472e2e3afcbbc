import ArgumentParser
import SlateCore
import SlateLinux

/// `slate probe-encoder`: one encoder's speed, measured in a process of its own
/// for `slate run` and `slate record`, so that the memory of an encoder they
/// do not pick is never theirs.
struct ProbeEncoder: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print how many frames per second an encoder encodes at a size (used by run and record).",
        shouldDisplay: false)

    @Argument var codec: String
    @Argument var width: Int
    @Argument var height: Int
    @Argument var fps: Int

    func run() {
        print(EncoderChoice.probeSpeed(codec: codec, width: width, height: height, fps: fps))
    }

    /// Measures `codec` with this executable in a child process; 0 when it cannot.
    static func inChildProcess(codec: String, width: Int, height: Int, fps: Int) -> Double {
        let argv = ["/proc/self/exe", "probe-encoder", codec, String(width), String(height), String(fps)]
        guard let (status, output) = try? ProcessLauncher.output(of: argv), status == 0 else { return 0 }
        return Double(output.split(separator: "\n").first ?? "") ?? 0
    }
}

import ArgumentParser
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate encoders`: every encoder of the codecs asked, each measured in a
/// child process at a size and rate, and the one `slate run` would pick, with why.
struct Encoders: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure every encoder (software and hardware) at a size and rate, and say which one is picked and why.",
        discussion: """
            Each encoder of each codec (libx265, hevc_vaapi, hevc_qsv, hevc_nvenc, hevc_v4l2m2m, then \
            libx264 and the same for H.264) is opened at the size, with the device and surfaces a \
            hardware encoder needs, and encodes half a second of the test pattern in a process of \
            its own (one whose device is missing, no GPU render node, NVIDIA driver or V4L2 \
            memory-to-memory device, is not opened): its speed, the CPU it takes at the frame rate (in cores) and the peak memory of \
            that process. The pick is the one slate run makes: of the first codec with an encoder \
            that sustains the rate with 20% to spare within the memory limit, the encoder that \
            takes the least CPU, then the least memory. Unlike slate run, every codec is measured.
            """)

    @Option(help: "The frame size, WIDTHxHEIGHT.")
    var size = "1920x1080"

    @Option(help: "The frame rate.")
    var fps = 30

    @Option(name: .customLong("codec"), help: "A codec to measure (hevc, h264), repeatable; in order of preference.")
    var codecs: [String] = ["hevc", "h264"]

    @Option(help: "The most memory a recording may take, in MB (as camera.memory-limit).")
    var memoryLimit = 150

    @Flag(help: "One JSON object per encoder, with its verdict.")
    var json = false

    func validate() throws {
        guard let (width, height) = Cameras.size(size), width % 2 == 0, height % 2 == 0 else {
            throw ValidationError("--size must be WIDTHxHEIGHT, both even, such as 1920x1080, not '\(size)'")
        }
        if !(1...240).contains(fps) { throw ValidationError("--fps must be 1 to 240, not \(fps)") }
        if !(100...4096).contains(memoryLimit) {
            throw ValidationError("--memory-limit must be 100 to 4096 MB, not \(memoryLimit)")
        }
        for codec in codecs where !["hevc", "h264"].contains(codec) {
            throw ValidationError("--codec must be hevc or h264, not '\(codec)'")
        }
    }

    func run() throws {
        guard let (width, height) = Cameras.size(size) else { return }
        let probes = EncoderChoice.candidates(for: codecs).map { candidate in
            if let reason = EncoderDevices.missing(for: candidate.encoder) {
                return EncoderChoice.Probe(
                    codec: candidate.codec, encoder: candidate.encoder, framesPerSecond: nil, failure: reason)
            }
            return ProbeEncoder.inChildProcess(
                encoder: candidate.encoder, codec: candidate.codec, width: width, height: height, fps: fps)
        }
        let limit = memoryLimit * 1024 * 1024
        let verdicts = EncoderChoice.judge(probes, fps: fps, memoryLimit: limit)
        if json {
            for (probe, verdict) in zip(probes, verdicts) { print(JSONLine.encode(ProbeLine(probe, verdict: verdict))) }
            return
        }
        let needed = EncoderChoice.needed(for: fps)
        print("encoders at \(size), \(fps) fps (each must sustain \(needed) fps in \(memoryLimit) MB):")
        for (probe, verdict) in zip(probes, verdicts) {
            let name = probe.encoder.padding(to: 14) + probe.codec.padding(to: 6)
            guard let speed = probe.framesPerSecond else {
                print("  \(name)cannot be opened here: \(probe.failure ?? "no reason given")")
                continue
            }
            let cpu = probe.cpu.map { EncoderChoice.cores($0) + " cores" } ?? "?"
            let memory = probe.memory.map { "\(EncoderChoice.megabytes($0)) MB" } ?? "?"
            print(
                "  \(name)\("\(Int(speed)) fps".padding(to: 10))\(cpu.padding(to: 12))\(memory.padding(to: 9))\(verdict.rawValue)"
            )
        }
        guard let choice = EncoderChoice.pick(probes, fps: fps, size: size, memoryLimit: limit) else {
            print("no encoder can be opened at \(size)")
            throw ExitCode.failure
        }
        for line in choice.log where line.hasPrefix("no encoder") { print(line) }
        print("slate run would record \(size) at \(fps) fps with \(choice.probe.encoder) (\(choice.probe.codec))")
    }
}

extension String {
    /// The string followed by spaces to `width` characters, and one more when it is longer.
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}

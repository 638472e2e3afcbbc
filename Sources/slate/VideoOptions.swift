import ArgumentParser
import SlateCore
import SlateSystem

/// The frame size, rate, codecs and length shared by the recording commands.
struct VideoOptions: ParsableArguments {
    @Option(help: "Frame size of the test pattern, WIDTHxHEIGHT (even numbers).")
    var size = "640x360"

    @Option(help: "Frames per second: 25, 29.97, 30000/1001.")
    var fps = FrameRate(30)

    @Option(help: "Codecs in preference order, comma-separated (hevc, h264, or an encoder name).")
    var codec = "hevc,h264"

    @Option(help: "How long to record, in seconds.")
    var seconds = 5.0

    func validate() throws {
        guard let (width, height) = VideoOptions.parseSize(size), width % 2 == 0, height % 2 == 0 else {
            throw ValidationError("--size must be WIDTHxHEIGHT with even numbers, e.g. 640x360; got '\(size)'")
        }
        guard fps >= 1, fps.value <= 240 else { throw ValidationError("--fps must be 1 to 240") }
        guard seconds > 0, seconds <= 24 * 3600 else { throw ValidationError("--seconds must be positive") }
    }

    /// The validated `--size`.
    var dimensions: (width: Int, height: Int) { VideoOptions.parseSize(size) ?? (640, 360) }

    var codecs: [String] { codec.split(separator: ",").map { String($0).trimmingWhitespace() } }

    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 16, height >= 16 else {
            return nil
        }
        return (width, height)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// `--fps`: an offered rate by its name (`29.97`) or any as a fraction (`30000/1001`).
extension FrameRate: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
}

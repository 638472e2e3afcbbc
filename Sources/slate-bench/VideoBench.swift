import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate-bench video [WxH] [fps] [frames]`: how fast the test pattern is drawn
/// and how fast each encoder encodes it, in frames per second.
func runVideoBench(_ arguments: [String]) {
    let size = (arguments.first ?? "1920x1080").split(separator: "x").compactMap { Int($0) }
    let (width, height) = size.count == 2 ? (size[0], size[1]) : (1920, 1080)
    let fps = arguments.count > 1 ? Int(arguments[1]) ?? 30 : 30
    let frames = arguments.count > 2 ? Int(arguments[2]) ?? 150 : 150

    let pattern = TestPattern(width: width, height: height)
    var checksum = 0
    let start = MonotonicClock.nanoseconds()
    for index in 0..<frames {
        let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 1_000_000 / Int64(fps)))
        checksum &+= Int(frame.y[index % frame.y.count])
    }
    let seconds = Double(MonotonicClock.nanoseconds() - start) / 1e9
    print("test pattern \(width)x\(height): \(rate(Double(frames) / seconds)) fps (\(checksum % 2))")
    for codec in ["libx264", "libx265", "h264", "hevc"] {
        let encoder = try? VideoEncoder(codecs: [codec], width: width, height: height, fps: FrameRate(fps))
        let name = encoder.map { "\($0.codecName)\($0.preset.map { " (\($0))" } ?? "")" } ?? "none"
        switch VideoEncoder.measure(encoder: codec, width: width, height: height, fps: fps, frames: frames) {
        case .success(let measured):
            print(
                "encode \(codec) -> \(name) \(width)x\(height) at \(fps) fps: \(rate(measured.framesPerSecond)) fps, "
                    + String(format: "%.2f of a core at %d fps", measured.cpu, fps))
        case .failure(let error):
            print("encode \(codec) \(width)x\(height): \(error.reason)")
        }
    }
}

private func rate(_ value: Double) -> String { String(Int(value.rounded())) }

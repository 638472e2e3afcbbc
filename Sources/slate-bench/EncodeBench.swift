import Foundation
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate-bench encode [frames]`: encode throughput at 1080p30 for each encoder,
/// Slate's VideoEncoder against the ffmpeg command line encoding the same raw
/// frames with the same settings (preset, zerolatency, a keyframe every 30
/// frames, no B-frames), in one run. ffmpeg's time includes its start-up and
/// reading the raw file from the page cache.
func runEncodeBench(_ arguments: [String]) {
    let (width, height, fps) = (1920, 1080, 30)
    let count = arguments.first.flatMap { Int($0) } ?? 240
    let pattern = TestPattern(width: width, height: height)
    let frames = (0..<count).map { pattern.frame(index: $0, time: Instant(microseconds: Int64($0) * 33_333)) }
    let raw = FileManager.default.temporaryDirectory.appendingPathComponent("slate-bench-\(getpid()).yuv")
    guard FileManager.default.createFile(atPath: raw.path, contents: nil), let handle = try? FileHandle(forWritingTo: raw)
    else { return print("cannot write \(raw.path)") }
    for frame in frames { handle.write(Data(frame.y + frame.u + frame.v)) }
    try? handle.close()
    defer { try? FileManager.default.removeItem(at: raw) }
    print("encode throughput, \(count) test-pattern frames at \(width)x\(height), \(fps) fps:")
    for encoderName in ["libx264", "libx265"] {
        guard let encoder = try? VideoEncoder(codecs: [encoderName], width: width, height: height, fps: FrameRate(fps)) else {
            print("  \(encoderName): not available")
            continue
        }
        let start = MonotonicClock.nanoseconds()
        var packets = 0
        for (index, frame) in frames.enumerated() {
            packets += (try? encoder.encode(frame, pts: Int64(index)))?.count ?? 0
        }
        packets += encoder.flush().count
        let slate = Double(count) / (Double(MonotonicClock.nanoseconds() - start) / 1e9)
        let preset = encoder.preset ?? "ultrafast"
        var options = ["-preset", preset, "-tune", "zerolatency", "-g", "\(fps)", "-bf", "0"]
        if encoderName == "libx265" { options += ["-x265-params", "log-level=error"] }
        let ffmpeg = timeFFmpeg(
            [
                "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(width)x\(height)", "-r", "\(fps)", "-i",
                raw.path,
                "-c:v", encoderName,
            ] + options + ["-f", "null", "-"], frames: count)
        let ratio = ffmpeg.map { String(format: "%.2f", slate / $0) } ?? "n/a"
        print(
            "  \(encoderName) (\(preset), zerolatency): slate \(Int(slate.rounded())) fps (\(packets) packets), "
                + "ffmpeg \(ffmpeg.map { String(Int($0.rounded())) } ?? "not installed") fps, ratio \(ratio) (goal: at least 1.0)"
        )
    }
}

/// Frames per second of one ffmpeg run, or nil when ffmpeg is missing or failed.
private func timeFFmpeg(_ arguments: [String], frames: Int) -> Double? {
    ffmpegSeconds(arguments).map { Double(frames) / $0 }
}

/// The wall time of one ffmpeg run in seconds, or nil when ffmpeg is missing or failed.
func ffmpegSeconds(_ arguments: [String]) -> Double? {
    guard let path = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile)
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let start = MonotonicClock.nanoseconds()
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(MonotonicClock.nanoseconds() - start) / 1e9
}

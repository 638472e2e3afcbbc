import Foundation
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate-bench export [takes]`: joining takes by stream copy, Slate's exporter
/// (probing, copying, re-opening to verify, deleting the takes) against
/// `ffmpeg -f concat -c copy` on the same files, which ffmpeg joins first.
func runExportBench(_ arguments: [String]) {
    let count = arguments.first.flatMap { Int($0) } ?? 10
    let (width, height, fps, framesPerTake) = (1280, 720, 30, 90)
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-export-bench-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let folder: TakeFolder
    do {
        folder = try TakeFolder(path: root + "/takes", create: true)
        let pattern = TestPattern(width: width, height: height)
        var manifest = TakeManifest()
        var list = ""
        for take in 0..<count {
            let name = "take-\(take).mp4"
            manifest.takes.append(
                try writePatternTake(
                    name, id: "\(take)", in: folder, pattern: pattern, fps: fps, frames: framesPerTake,
                    first: take * framesPerTake, keyframeInterval: framesPerTake))
            list += "file '\(folder.file(name))'\n"
            _ = try Data(contentsOf: URL(fileURLWithPath: folder.file(name)))
        }
        try folder.save(manifest)
        try list.write(toFile: root + "/list.txt", atomically: true, encoding: .utf8)
    } catch {
        return print("export bench: \(error)")
    }
    print("joining \(count) takes of \(framesPerTake) frames (\(width)x\(height) H.264) by stream copy:")
    let ffmpeg = ffmpegSeconds([
        "-v", "error", "-f", "concat", "-safe", "0", "-i", root + "/list.txt", "-c", "copy", "-y", root + "/ffmpeg.mp4",
    ])
    let start = MonotonicClock.nanoseconds()
    do {
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: root + "/out").export(at: 0)
        let slate = Double(MonotonicClock.nanoseconds() - start) / 1e9
        print(
            String(format: "  slate %.3f s (%d frames, verified, takes deleted), ffmpeg ", slate, outcome.frames)
                + (ffmpeg.map { String(format: "%.3f s, ratio %.2f (goal: at most 1.0)", $0, slate / $0) } ?? "not installed"))
    } catch {
        print("  slate: \(error)")
    }
}

/// Writes `frames` frames of `pattern` (from its frame `first`) as the take
/// `name` of `folder`, encoded as a rig would (H.264, a keyframe every
/// `keyframeInterval` frames), and returns the take as `takes.json` lists it.
func writePatternTake(
    _ name: String, id: String, in folder: TakeFolder, pattern: TestPattern, fps: Int, frames: Int, first: Int = 0,
    keyframeInterval: Int
) throws -> TakeManifest.Take {
    let encoder = try VideoEncoder(codecs: ["h264"], width: pattern.width, height: pattern.height, fps: FrameRate(fps))
    let writer = try TakeWriter(
        fd: try folder.create(name), named: name, in: folder.directory, parameters: encoder.parameters)
    for index in 0..<frames {
        let frame = pattern.frame(index: first + index, time: Instant(microseconds: Int64(index) * Int64(1_000_000 / fps)))
        for packet in try encoder.encode(frame, pts: Int64(index), keyframe: index % keyframeInterval == 0) {
            try writer.write(packet)
        }
    }
    for packet in encoder.flush() { try writer.write(packet) }
    try writer.finish()
    return TakeManifest.Take(
        id: id, file: name, thumbnail: nil, started: 0, summary: TakeSummary(frames: frames), codec: "h264",
        recording: false)
}

import Foundation
import SlateCore
import SlateMedia
import SlateSystem

/// `slate-bench export-take [minutes]`: one long 720p30 take joined by stream
/// copy with the real `slate takes export` as a child process (its wall time and
/// peak resident memory, the result verified as every export is), against
/// `ffmpeg -c copy -movflags +faststart` of the same take, and the ratios.
func runExportTakeBench(_ arguments: [String]) {
    let minutes = arguments.first.flatMap { Int($0) } ?? 10
    let (width, height, fps) = (1280, 720, 30)
    let frames = minutes * 60 * fps
    let slate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("slate")
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-export-take-bench-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    let name = "take-1.mp4"
    let take: String
    do {
        let folder = try TakeFolder(path: root + "/takes", create: true)
        var manifest = TakeManifest()
        manifest.takes.append(
            try writePatternTake(
                name, id: "1", in: folder, pattern: TestPattern(width: width, height: height), fps: fps, frames: frames,
                keyframeInterval: fps))
        try folder.save(manifest)
        take = folder.file(name)
    } catch {
        return print("export-take bench: \(error)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: take)[.size] as? Int) ?? 0
    print(
        String(
            format: "one take of %d min (%d frames of %dx%d H.264, %.0f MB) joined by stream copy:", minutes, frames, width,
            height, Double(size) / 1e6))
    let slateStart = MonotonicClock.nanoseconds()
    guard
        let exported = runMeasured(
            slate.path, ["takes", "export", "--work", root + "/takes", "--output", root + "/out", "--keep", "--json"])
    else { return print("  cannot run \(slate.path)") }
    let slateSeconds = seconds(MonotonicClock.nanoseconds() - slateStart)
    guard exported.status == 0 else {
        return print("  slate takes export failed (status \(exported.status)): \(exported.output)")
    }
    let slateMegabytes = Double(exported.maxRSSKilobytes) / 1024
    print(
        String(
            format: "  slate takes export: %.2f s, peak RSS %.1f MB (the result re-read and verified)", slateSeconds,
            slateMegabytes))
    guard let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: FileManager.default.isExecutableFile) else {
        return print("  ffmpeg is not installed: no reference")
    }
    let ffmpegStart = MonotonicClock.nanoseconds()
    guard
        let reference = runMeasured(
            ffmpeg, ["-v", "error", "-i", take, "-c", "copy", "-movflags", "+faststart", "-y", root + "/ffmpeg.mp4"]),
        reference.status == 0
    else { return print("  ffmpeg -c copy failed") }
    let ffmpegSeconds = seconds(MonotonicClock.nanoseconds() - ffmpegStart)
    let ffmpegMegabytes = Double(reference.maxRSSKilobytes) / 1024
    print(
        String(
            format: "  reference: ffmpeg -c copy -movflags +faststart: %.2f s, peak RSS %.1f MB", ffmpegSeconds, ffmpegMegabytes))
    print(
        String(
            format: "  slate to ffmpeg: time %.2f, peak RSS %.2f (goal for memory: at most 1.00)", slateSeconds / ffmpegSeconds,
            slateMegabytes / ffmpegMegabytes))
}

import Foundation
import Glibc

/// A fresh folder for one test's media files.
enum MediaFiles {
    static func folder(_ name: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("slate-media-\(getpid())-\(name)")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// The `slate` executable built next to the test binary.
    static let slate = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("slate").path

    /// ffprobe's path, when it is installed.
    static let ffprobe: String? = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Packets ffprobe counts in the first video stream and its duration in seconds.
    static func ffprobeCount(_ path: String) throws -> (packets: Int, seconds: Double)? {
        guard let ffprobe else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = [
            "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries",
            "stream=nb_read_packets:packet=pts_time,duration_time", "-of", "default=nw=1", path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        var packets = 0, end = 0.0, start = Double.infinity
        var lastPTS = 0.0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "nb_read_packets": packets = Int(parts[1]) ?? 0
            case "pts_time":
                lastPTS = Double(parts[1]) ?? 0
                start = min(start, lastPTS)
            case "duration_time": end = max(end, lastPTS + (Double(parts[1]) ?? 0))
            default: break
            }
        }
        return (packets, start.isFinite ? end - start : 0)
    }
}

import Foundation
import Testing

/// `slate record-pattern` writes a take and its thumbnail in real time.
@Suite struct RecordPatternCommandTests {
    @Test func recordsATakeAndItsThumbnail() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-pattern-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let take = folder + "/take.mp4"
        let result = try CLI.run([
            "record-pattern", "--size", "320x180", "--fps", "20", "--codec", "h264", "--seconds", "1", take,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 4)
        #expect(result.lines.first == "recording \(take): libx264 (h264, preset veryfast), 320x180 at 20 fps")
        #expect(result.lines.dropFirst().first == "wrote \(take): h264 320x180, 20 frames, 1.000 s, 1 keyframes")
        #expect(result.lines.dropFirst(2).first == "thumbnail \(folder)/take.jpg")
        #expect(result.lines.last?.hasPrefix("encoder libx264 ") == true)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder + "/take.jpg"))
        #expect(jpeg.prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test func aBadSizeIsAUsageError() throws {
        let result = try CLI.run(["record-pattern", "--size", "big", "/tmp/never.mp4"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--size must be WIDTHxHEIGHT"))
    }
}

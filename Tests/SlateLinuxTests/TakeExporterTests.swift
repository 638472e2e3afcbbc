import Foundation
import Testing

import SlateCore
@testable import SlateLinux

@Suite struct TakeExporterTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-export-\(UUID().uuidString)").path

    func folders() throws -> (TakeFolder, String) {
        try FileWriting.makeFolders(root + "/takes")
        try FileWriting.makeFolders(root + "/out")
        return (TakeFolder(path: root + "/takes"), root + "/out")
    }

    /// A take of `frames` test-pattern frames at 30 fps, written as the recorder writes them.
    func addTake(_ folder: TakeFolder, _ name: String, frames: Int, width: Int = 320, height: Int = 180) throws {
        let encoder = try VideoEncoder(codecs: ["h264"], width: width, height: height, fps: 30)
        let writer = try TakeWriter(path: folder.file(name), parameters: encoder.parameters)
        let pattern = TestPattern(width: width, height: height)
        for index in 0..<frames {
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
            for packet in try encoder.encode(frame, pts: Int64(index), keyframe: index == 0) { try writer.write(packet) }
        }
        for packet in encoder.flush() { try writer.write(packet) }
        try writer.finish()
        var manifest = try folder.load()
        manifest.takes.append(
            TakeManifest.Take(
                id: name, file: name, thumbnail: nil, started: 1_795_253_112_000_000, duration: .microseconds(Int64(frames) * 33_333),
                frames: frames, codec: "h264", recording: false))
        try folder.save(manifest)
    }

    func files(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func takesAreJoinedByStreamCopyVerifiedAndOnlyThenDeleted() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        try addTake(folder, "take-b.mp4", frames: 45)
        try addTake(folder, "take-c.mp4", frames: 15)
        var fractions: [Double] = []
        let outcome = try TakeExporter(folder: folder, outputFolder: output)
            .export(at: 1_795_253_112_000_000) { fractions.append($0) }
        #expect(outcome.path == output + "/slate-20261121-092512.mp4")
        #expect(outcome.takes == 3 && outcome.frames == 90)
        let seconds = Double(outcome.duration.microseconds) / 1e6
        #expect(abs(seconds - 3.0) <= 0.034)
        let info = try MediaProbe.probe(path: outcome.path, decode: true)
        #expect(info.frameCount == 90 && info.decodedFrames == 90)
        #expect(fractions.last == 1)
        #expect(fractions == fractions.sorted())
        #expect(files(output) == ["slate-20261121-092512.mp4"])
        #expect(files(folder.path) == ["takes.json"])
        #expect(try folder.load().takes.isEmpty)
    }

    @Test func takesThatCannotBeCopiedAreAllKept() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10)
        try addTake(folder, "take-b.mp4", frames: 10, width: 160, height: 90)
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(folder: folder, outputFolder: output).export(at: 0)
        }
        #expect(
            failure?.description
                == "these takes cannot be joined by stream copy: \(folder.file("take-b.mp4")) is 160x90, \(folder.file("take-a.mp4")) is 320x180")
        #expect(try folder.load().takes.count == 2)
        #expect(files(output).isEmpty)
    }

    @Test func anUnwritableOutputKeepsEveryTake() throws {
        let (folder, _) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10)
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(folder: folder, outputFolder: root + "/missing").export(at: 0)
        }
        #expect(failure?.description.hasSuffix("the takes are kept") == true)
        #expect(try folder.load().takes.count == 1)
        #expect(files(folder.path) == ["take-a.mp4", "takes.json"])
    }

    @Test func nothingToExportIsAnError() throws {
        let (folder, output) = try folders()
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(folder: folder, outputFolder: output).export(at: 0)
        }
        #expect(failure?.description == "no takes to export in \(folder.path)")
    }
}

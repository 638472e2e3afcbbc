import Foundation
import Testing

import SlateCore
@testable import SlateLinux

@Suite struct TakeFolderTests {
    func makeFolder() throws -> TakeFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("slate-takes-\(UUID().uuidString)").path
        try FileWriting.makeFolders(path + "/nested")
        return TakeFolder(path: path + "/nested")
    }

    @Test func savesAtomicallyAndLoadsBack() throws {
        let folder = try makeFolder()
        #expect(try folder.load() == TakeManifest())
        let manifest = TakeManifest(takes: [TakeManifestTests.take])
        try folder.save(manifest)
        #expect(try folder.load() == manifest)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test func deleteRemovesFileThumbnailAndEntry() throws {
        let folder = try makeFolder()
        let take = TakeManifestTests.take
        var other = take
        other.id = "other"
        other.file = "take-other.mp4"
        other.thumbnail = nil
        for name in [take.file, take.thumbnail!, other.file] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        var manifest = TakeManifest(takes: [take, other])
        try folder.save(manifest)
        try folder.delete(take, from: &manifest)
        #expect(manifest.takes.map(\.id) == ["other"])
        #expect(try folder.load() == manifest)
        #expect(!FileManager.default.fileExists(atPath: folder.file(take.file)))
        #expect(!FileManager.default.fileExists(atPath: folder.file(take.thumbnail!)))
        #expect(FileManager.default.fileExists(atPath: folder.file(other.file)))
    }

    @Test func aCorruptManifestIsAnErrorWithItsPosition() throws {
        let folder = try makeFolder()
        try "{\"takes\": 7}".write(toFile: folder.manifestPath, atomically: true, encoding: .utf8)
        #expect(throws: TakeFolder.Failure.self) { try folder.load() }
        do {
            _ = try folder.load()
        } catch {
            #expect(error.description == "\(folder.manifestPath):1:11: error: takes must be a list")
        }
    }
}

/// The take used across these tests (SlateCoreTests' is not visible here).
enum TakeManifestTests {
    static let take = TakeManifest.Take(
        id: "3f2a", file: "take-20231114-221320-3f2a.mp4", thumbnail: "take-20231114-221320-3f2a.jpg",
        started: 1_700_000_000_123_456, duration: .microseconds(12_345_678), frames: 370, dropped: 2, codec: "h264",
        recording: false)
}

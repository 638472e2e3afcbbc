import Foundation
import SlateCore
import SlateMedia
import SlateSystem
import Testing

@Suite struct TakeFolderTests {
    func makeFolder() throws -> TakeFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("slate-takes-\(UUID().uuidString)").path
        return try TakeFolder(path: path + "/nested", create: true)
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
        try folder.save(TakeManifest(takes: [take, other]))
        let ledger = try TakeLedger(folder: folder)
        try folder.delete(take, from: ledger)
        #expect(ledger.manifest.takes.map(\.id) == ["other"])
        #expect(try folder.load() == ledger.manifest)
        #expect(!FileManager.default.fileExists(atPath: folder.file(take.file)))
        #expect(!FileManager.default.fileExists(atPath: folder.file(take.thumbnail!)))
        #expect(FileManager.default.fileExists(atPath: folder.file(other.file)))
    }

    @Test func aCorruptManifestIsAnErrorNamingTheEntry() throws {
        let folder = try makeFolder()
        try "{\"takes\": 7}".write(toFile: folder.manifestPath, atomically: true, encoding: .utf8)
        #expect(throws: TakeFolder.Failure.self) { try folder.load() }
        do {
            _ = try folder.load()
        } catch {
            #expect(error.description == "\(folder.manifestPath): error: takes: must be a list")
        }
    }

    @Test func deleteRemovesExactlyOneTakeWhenIdsRepeat() throws {
        let folder = try makeFolder()
        var first = TakeManifestTests.take
        first.thumbnail = nil
        var second = first
        second.file = "take-20231114-221321-3f2a.mp4"
        for name in [first.file, second.file] { try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name))) }
        try folder.save(TakeManifest(takes: [first, second]))
        let ledger = try TakeLedger(folder: folder)
        try folder.delete(second, from: ledger)
        #expect(try folder.load().takes == [first])
        #expect(FileManager.default.fileExists(atPath: folder.file(first.file)))
        #expect(!FileManager.default.fileExists(atPath: folder.file(second.file)))
    }

    @Test func newIdsAreUniqueInTheFolder() {
        var manifest = TakeManifest()
        #expect(manifest.nextID() == "0001")
        var take = TakeManifestTests.take
        for id in ["bf00", "0007", "12", "99999999999"] {
            take.id = id
            manifest.takes.append(take)
        }
        #expect(manifest.nextID() == "0013")
        #expect(!manifest.takes.map(\.id).contains(manifest.nextID()))
    }

    @Test func recoveryFinishesAnExportThatWasDeletingItsTakes() throws {
        let folder = try makeFolder()
        var exported = TakeManifestTests.take
        exported.exported = "slate-20231114-221400.mp4"
        var kept = TakeManifestTests.take
        kept.id = "0002"
        kept.file = "take-kept.mp4"
        kept.thumbnail = nil
        for name in [exported.file, exported.thumbnail!, kept.file] {
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name)))
        }
        try folder.save(TakeManifest(takes: [exported, kept]))
        let ledger = try TakeLedger(folder: folder)
        let notes = folder.recover(ledger)
        #expect(notes.count == 1 && notes[0].contains("slate-20231114-221400.mp4"), "\(notes)")
        #expect(try folder.load().takes == [kept])
        #expect(!FileManager.default.fileExists(atPath: folder.file(exported.file)))
        #expect(!FileManager.default.fileExists(atPath: folder.file(exported.thumbnail!)))
    }

    @Test func recoveryRemovesTheTemporaryFilesACrashLeft() throws {
        let folder = try makeFolder()
        var recording = TakeManifestTests.take
        recording.recording = true
        recording.thumbnail = nil
        try folder.save(TakeManifest(takes: [recording]))
        let thumbnail = TakeManifest.thumbnailName(for: recording.file)
        let leftovers = [".takes.json.tmp-Ab12Cd34Ef56Gh78", JPEGThumbnail.partialPrefix(for: thumbnail) + "Zz98Yy76Xx54Ww32"]
        for name in leftovers + ["notes.txt"] { try Data("x".utf8).write(to: URL(fileURLWithPath: folder.file(name))) }
        _ = folder.recover(try TakeLedger(folder: folder))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers.allSatisfy { !names.contains($0) }, "\(names)")
        #expect(names.contains("notes.txt"), "a file that is not Slate's stays")
    }

    @Test func theLockIsHeldByOneProcessAtATimeAndSaysByWhom() throws {
        let folder = try makeFolder()
        let path = folder.path
        // A child process holds the lock: flock locks belong to the open file, so another
        // process's attempt is what a second daemon would see.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [
            folder.file(".slate.lock"), "sh", "-c", "echo 'slate run (pid 4242)' > '\(path)/.slate.lock'; sleep 30",
        ]
        try holder.run()
        defer { holder.terminate() }
        let deadline = MonotonicClock.now() + .seconds(5)
        while (try? String(contentsOfFile: folder.file(".slate.lock"), encoding: .utf8))?.isEmpty ?? true,
            MonotonicClock.now() < deadline
        {
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20))
        }
        do {
            _ = try TakeFolderLock(folder, holder: "slate takes delete (pid 1)")
            Issue.record("the lock was taken twice")
        } catch {
            #expect(error.description == "\(path) is in use by slate run (pid 4242)")
        }
        holder.terminate()
        holder.waitUntilExit()
        let lock = try TakeFolderLock(folder, holder: TakeFolderLock.holder("run"))
        #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "slate run (pid \(getpid()))\n")
    }

    @Test func aMissingFolderCannotBeLocked() {
        #expect(throws: TakeFolder.Failure.self) {
            try TakeFolderLock(TakeFolder(path: "/nonexistent/slate", create: false), holder: "x")
        }
    }
}

/// The take used across these tests (SlateCoreTests' is not visible here).
enum TakeManifestTests {
    static let take = TakeManifest.Take(
        id: "3f2a", file: "take-20231114-221320-3f2a.mp4", thumbnail: "take-20231114-221320-3f2a.jpg",
        started: 1_700_000_000_123_456, summary: TakeSummary(duration: .microseconds(12_345_678), frames: 370, dropped: 2),
        codec: "h264",
        recording: false)
}

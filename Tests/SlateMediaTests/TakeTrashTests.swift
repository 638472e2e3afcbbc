import Foundation
import SlateCore
import SlateSystem
import Testing

@testable import SlateMedia

/// The work folder's trash: a deleted take waits there, restorable byte for
/// byte, until its time is over; a crash halfway through is finished.
@Suite struct TakeTrashTests {
    static let hour: Int64 = 3_600_000_000

    /// A work folder with takes `names` (a file and a thumbnail of their own bytes each), listed.
    func folder(_ names: [String]) throws -> (TakeFolder, TakeLedger) {
        let path = NSTemporaryDirectory() + "slate-trash-\(UUID().uuidString)"
        let folder = try TakeFolder(path: path, create: true)
        var manifest = TakeManifest()
        for (index, name) in names.enumerated() {
            try Data("video \(name)".utf8).write(to: URL(fileURLWithPath: folder.file("take-\(name).mp4")))
            try Data("thumb \(name)".utf8).write(to: URL(fileURLWithPath: folder.file("take-\(name).jpg")))
            manifest.takes.append(
                TakeManifest.Take(
                    id: "000\(index + 1)", file: "take-\(name).mp4", thumbnail: "take-\(name).jpg",
                    started: Int64(index) * 1_000_000, codec: "h264", recording: false))
        }
        try folder.save(manifest)
        return (folder, try TakeLedger(folder: folder))
    }

    func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func aDeletedTakeWaitsInTheTrashAndComesBackByteForByte() throws {
        let (folder, ledger) = try folder(["a", "b"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        let take = ledger.manifest.takes[0]
        #expect(try folder.discard(take, from: ledger, at: 10 * Self.hour))
        #expect(entries(folder.path) == ["take-b.jpg", "take-b.mp4", "takes.json", "trash"])
        #expect(entries(folder.file("trash")) == ["take-a.jpg", "take-a.mp4"])
        #expect(ledger.available.map(\.file) == ["take-b.mp4"])
        // Saved: the folder read again says the same.
        #expect(try folder.load().takes.first?.trashed == 10 * Self.hour)
        #expect(TakeTrash.contents(of: ledger.manifest).map(\.file) == ["take-a.mp4"])
        #expect(folder.location(of: ledger.manifest.takes[0]) == folder.file("trash/take-a.mp4"))
        #expect(try !folder.discard(take, from: ledger, at: 11 * Self.hour), "a take no longer listed as it was")
        #expect(try folder.restore(ledger.manifest.takes[0], from: ledger))
        #expect(ledger.available.map(\.file) == ["take-a.mp4", "take-b.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("take-a.mp4"))) == Data("video a".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("take-a.jpg"))) == Data("thumb a".utf8))
        #expect(entries(folder.file("trash")).isEmpty)
    }

    @Test func theTrashIsEmptiedOnlyOfTakesWhoseTimeIsOver() throws {
        var (folder, ledger) = try folder(["a", "b", "c"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        folder.trashHours = 24
        try folder.trash(ledger.manifest.takes[0], from: ledger, at: 0)
        try folder.trash(ledger.manifest.takes[1], from: ledger, at: 2 * Self.hour)
        // The time was set as each was deleted: a profile that keeps them less now does not move it.
        #expect(folder.purge(ledger, at: 3 * Self.hour, hours: 0).isEmpty)
        #expect(folder.purge(ledger, at: 24 * Self.hour - 1, hours: 24).isEmpty)
        let notes = folder.purge(ledger, at: 24 * Self.hour, hours: 24)
        #expect(notes == ["deleted take-a.mp4 for good: it was in the trash for 24 h"])
        #expect(entries(folder.file("trash")) == ["take-b.jpg", "take-b.mp4"])
        #expect(ledger.manifest.takes.map(\.file) == ["take-b.mp4", "take-c.mp4"])
        #expect(try folder.load().takes.map(\.file) == ["take-b.mp4", "take-c.mp4"])
        #expect(folder.purge(ledger, at: 26 * Self.hour, hours: 24).count == 1)
        #expect(entries(folder.file("trash")).isEmpty && ledger.available.map(\.file) == ["take-c.mp4"])
    }

    /// Takes with proxies: each proxy goes to the trash's proxy folder with its
    /// take and back, away for good with it (purged, or deleted at once), and
    /// one a crash left behind in the work folder follows its take at the next start.
    @Test func aTakesProxyFollowsItToTheTrashBackAndAway() throws {
        var (folder, ledger) = try folder(["a", "b", "c"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        try FileManager.default.createDirectory(atPath: folder.file("Proxy"), withIntermediateDirectories: false)
        try ledger.change { manifest in
            for index in manifest.takes.indices {
                let take = manifest.takes[index]
                manifest.takes[index].proxy = ProxyNaming.resolve.path(for: take.file)
                try? Data("proxy \(take.file)".utf8).write(to: URL(fileURLWithPath: folder.file(manifest.takes[index].proxy!)))
            }
        }
        folder.trashHours = 24
        #expect(try folder.trash(ledger.manifest.takes[0], from: ledger, at: 0))
        #expect(entries(folder.file("Proxy")) == ["take-b.mp4", "take-c.mp4"])
        #expect(entries(folder.file("trash/Proxy")) == ["take-a.mp4"])
        #expect(try folder.restore(ledger.manifest.takes[0], from: ledger))
        #expect(entries(folder.file("Proxy")) == ["take-a.mp4", "take-b.mp4", "take-c.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("Proxy/take-a.mp4"))) == Data("proxy take-a.mp4".utf8))

        // Purged with its take.
        try folder.trash(ledger.manifest.takes[0], from: ledger, at: 0)
        #expect(folder.purge(ledger, at: 24 * Self.hour, hours: 24).count == 1)
        #expect(entries(folder.file("trash/Proxy")).isEmpty && entries(folder.file("Proxy")) == ["take-b.mp4", "take-c.mp4"])

        // A crash between marking take b and moving its files: its proxy follows at the next start.
        try ledger.change { manifest in manifest.takes[0].trashed = Self.hour }
        _ = folder.recover(ledger)
        #expect(entries(folder.file("trash/Proxy")) == ["take-b.mp4"] && entries(folder.file("Proxy")) == ["take-c.mp4"])

        // Deleted at once.
        folder.trashHours = 0
        let c = try #require(ledger.manifest.takes.last)
        #expect(try folder.discard(c, from: ledger, at: 2 * Self.hour))
        #expect(entries(folder.file("Proxy")).isEmpty && !FileManager.default.fileExists(atPath: folder.file("take-c.mp4")))
    }

    @Test func withNoHoursATakeIsDeletedAtOnce() throws {
        var (folder, ledger) = try folder(["a"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        folder.trashHours = 0
        #expect(try folder.discard(ledger.manifest.takes[0], from: ledger, at: 0))
        #expect(entries(folder.path) == ["takes.json"] && ledger.manifest.takes.isEmpty)
    }

    @Test func aDeletionACrashCutIsFinishedAtTheNextStart() throws {
        let (folder, _) = try folder(["a", "b"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        // Marked in the trash, its files not yet moved: the next start moves them.
        var manifest = try folder.load()
        manifest.takes[0].trashed = 5
        try folder.save(manifest)
        let ledger = try TakeLedger(folder: folder)
        #expect(folder.recover(ledger) == ["moved \(folder.file("take-a.mp4")) to the trash, as its deletion began to"])
        #expect(entries(folder.file("trash")) == ["take-a.jpg", "take-a.mp4"])
        #expect(ledger.manifest.takes[0].trashed == 5)
        // Nothing left to do: the next start says nothing.
        #expect(folder.recover(ledger).isEmpty)
    }

    @Test func aTakeWhoseNameTheTrashHoldsIsNotMovedOverIt() throws {
        let (folder, ledger) = try folder(["a"])
        defer { try? FileManager.default.removeItem(atPath: folder.path) }
        try FileManager.default.createDirectory(atPath: folder.file("trash"), withIntermediateDirectories: true)
        try Data("older".utf8).write(to: URL(fileURLWithPath: folder.file("trash/take-a.mp4")))
        #expect(throws: OperationError.self) { try folder.trash(ledger.manifest.takes[0], from: ledger, at: 1) }
        // Still listed, not in the trash.
        #expect(try folder.load().takes.first?.trashed == nil && ledger.available.map(\.file) == ["take-a.mp4"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("trash/take-a.mp4"))) == Data("older".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("take-a.mp4"))) == Data("video a".utf8))
    }
}

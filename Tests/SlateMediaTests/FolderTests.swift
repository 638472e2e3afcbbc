import Foundation
import Glibc
import SlateCore
import SlateMedia
import SlateSystem
import SystemPackage
import Testing

/// The folders Slate writes into: refused when another user could plant files
/// in them, made private for takes, and never written through a link.
@Suite struct FolderTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-folder-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    @Test func aFolderOtherUsersCanWriteToIsRefused() throws {
        let shared = root + "/shared"
        mkdir(shared, 0o755)
        chmod(shared, 0o777)
        let failure = #expect(throws: Folder.Failure.self) { try Folder(shared) }
        #expect(
            failure?.description
                == "\(shared): other users can write to it (mode 0777); they could plant files for Slate to write through: run 'chmod go-w \(shared)' or choose a folder of your own"
        )
        #expect(throws: TakeFolder.Failure.self) { try TakeFolder(path: shared, create: true) }
        #expect(mode(shared) == 0o777, "a refused folder is left as it was")
    }

    @Test func theSharedTemporaryFolderIsRefused() throws {
        #expect(throws: Folder.Failure.self) { try Folder("/tmp") }
    }

    @Test(.enabled(if: geteuid() == 0, "giving a folder to another user needs root"))
    func aFolderOfAnotherUserIsRefused() throws {
        let theirs = root + "/theirs"
        mkdir(theirs, 0o755)
        chown(theirs, 65534, 65534)
        let failure = #expect(throws: Folder.Failure.self) { try Folder(theirs) }
        #expect(failure?.description.hasPrefix("\(theirs): belongs to user 65534") == true, "\(String(describing: failure))")
    }

    @Test func aLinkInPlaceOfTheFolderIsRefused() throws {
        let real = root + "/real", link = root + "/link"
        mkdir(real, 0o700)
        symlink(real, link)
        let failure = #expect(throws: Folder.Failure.self) { try Folder(link) }
        #expect(failure?.description.hasPrefix("\(link): is a symbolic link") == true, "\(String(describing: failure))")
    }

    @Test func aMissingWorkFolderIsMadeAndPrivate() throws {
        let work = root + "/a/b/takes"
        let folder = try TakeFolder(path: work, create: true)
        #expect(mode(work) == 0o700)
        #expect(folder.access == .private)
    }

    @Test func anExistingWorkFolderIsMadeAsPrivateAsTheProfileSays() throws {
        let work = root + "/takes"
        mkdir(work, 0o755)
        chmod(work, 0o755)
        _ = try TakeFolder(path: work, create: true)
        #expect(mode(work) == 0o700)
        _ = try TakeFolder(path: work, create: true, access: .group)
        #expect(mode(work) == 0o750)
        _ = try TakeFolder(path: work, create: false)
        #expect(mode(work) == 0o750, "a folder only read keeps its mode")
    }

    @Test func createNeverFollowsALinkNorReplacesAFile() throws {
        let folder = try Folder(root)
        let victim = root + "/victim"
        try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
        symlink(victim, root + "/planted")
        symlink(root + "/nowhere", root + "/dangling")
        for name in ["planted", "dangling", "victim"] {
            let failure = #expect(throws: OperationError.self) { try folder.create(name, mode: 0o600) }
            #expect(failure?.errno == .fileExists)
            #expect(failure?.description == root + "/\(name): cannot create: openat: File exists (EEXIST)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(!FileManager.default.fileExists(atPath: root + "/nowhere"))
    }

    @Test func uniqueNamesAreUnpredictable() throws {
        let folder = try Folder(root)
        let names = try (0..<50).map { _ in
            let (name, fd) = try folder.createUnique(prefix: ".x-", mode: 0o600)
            try fd.close()
            return name
        }
        #expect(Set(names).count == 50)
        #expect(names.allSatisfy { $0.count == 3 + 16 })
    }
}

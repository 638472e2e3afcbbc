import Foundation
import Glibc
import SlateCore
import SlateMedia
import SlateTestSupport
import Testing

/// A rig's raw footage is private by default: `slate record` makes the work
/// folder 0700 and its takes, thumbnails and `takes.json` 0600; a profile's
/// `camera.takes-access` can share them; an export follows the user's umask.
@Suite struct FileModeTests {
    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    /// Runs `slate ARGUMENTS` to its end with umask 022; its exit status and standard error.
    func slate(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let errors = Pipe()
        let saved = umask(0o022)
        defer { umask(saved) }
        let (process, out) = try MediaFiles.launchSlate(arguments, errors: errors)
        _ = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    func record(into work: String, profile: String? = nil) throws -> TakeManifest.Take {
        let result = try slate(
            ["record", "--size", "320x180", "--codec", "h264", "--seconds", "0.5", "--work", work]
                + (profile.map { ["--profile", $0] } ?? []))
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try TakeFolder(path: work, create: false).load().takes.first)
    }

    @Test(.timeLimit(.minutes(1))) func takesArePrivateAndExportsFollowTheUmask() throws {
        let folder = try MediaFiles.folder("modes")
        defer { MediaFiles.remove(folder) }
        let work = folder + "/takes"
        let take = try record(into: work)
        #expect(mode(work) == 0o700)
        #expect(mode(work + "/takes.json") == 0o600)
        #expect(mode(work + "/" + take.file) == 0o600)
        let thumbnail = try #require(take.thumbnail)
        #expect(mode(work + "/" + thumbnail) == 0o600)

        let result = try slate(["takes", "export", "--work", work, "--output", folder + "/exports", "--keep"])
        #expect(result.status == 0, "\(result.stderr)")
        let exports = try FileManager.default.contentsOfDirectory(atPath: folder + "/exports")
        #expect(exports.count == 1 && exports.allSatisfy { mode(folder + "/exports/" + $0) == 0o644 }, "\(exports)")
        #expect(mode(folder + "/exports") == 0o755)
    }

    @Test(.timeLimit(.minutes(1))) func aProfileCanShareTheTakesWithTheGroup() throws {
        let folder = try MediaFiles.folder("modes-group")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        let demo = try String(contentsOfFile: RunCommandTests.demoProfile, encoding: .utf8)
        try demo.replacingOccurrences(of: "\ncamera:\n", with: "\ncamera:\n  takes-access: group\n")
            .write(toFile: profile, atomically: false, encoding: .utf8)
        let take = try record(into: folder + "/takes", profile: profile)
        #expect(mode(folder + "/takes") == 0o750)
        #expect(mode(folder + "/takes/" + take.file) == 0o640)
        #expect(mode(folder + "/takes/takes.json") == 0o640)
    }

    @Test func aWorkFolderOtherUsersCanWriteToIsRefusedByName() throws {
        let folder = try MediaFiles.folder("modes-shared")
        defer { MediaFiles.remove(folder) }
        chmod(folder, 0o777)
        let result = try slate(["record", "--seconds", "0.5", "--work", folder])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(folder): other users can write to it (mode 0777)"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty, "nothing is written there")
    }
}

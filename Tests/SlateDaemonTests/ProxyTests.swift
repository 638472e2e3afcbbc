import Foundation
import Glibc
import SlateCore
import SlateDaemon
import SlateMedia
import SlateSystem
import SlateTestSupport
import Testing

/// `camera.proxy`: a proxy written beside each take from the same frames,
/// with its timecode and sound, listed in `takes.json` and filed where
/// editors look for it; deleted and restored with its take.
@Suite struct ProxyTests {
    typealias Run = RunCommandTests

    /// Records the session `presses` of `rig` with the test tone, in `folder`.
    static func record(_ rig: String, _ presses: [(code: Int, down: Double, up: Double)], end: Double, in folder: String)
        throws -> RunCommandTests.Run
    {
        try Run.runSession(rig, presses, end: end, in: folder, audio: "testtone")
    }

    /// When a file's video keyframes are, in microseconds.
    static func keyframes(in path: String) throws -> [Int64] {
        let (folder, name) = Folder.split(path)
        let reader = try PacketReader(name, in: try Folder(folder))
        var keyframes: [Int64] = []
        _ = reader.forEachPacket { if $0.isKeyframe { keyframes.append(reader.parameters.timeBase.microseconds($0.pts)) } }
        return keyframes
    }

    @Test(.timeLimit(.minutes(1))) func aTakesProxyHoldsItsFramesTimecodeAndSoundSmaller() throws {
        let folder = try MediaFiles.folder("proxy-take")
        defer { MediaFiles.remove(folder) }
        let result = try Self.record(
            Run.macroRig("[{take.mark: Applause}]", camera: ["max-size: 1280x720", "proxy: 360p"]),
            [(Run.middle, 0.1, 0.15), (Run.left, 1.0, 1.05), (Run.middle, 2.5, 2.55)], end: 3, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.allSatisfy { $0["event"] as? String != "failed" }, "\(result.lines)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        let stem = String(take.file.dropLast(4))
        #expect(take.proxy == "Proxy/\(stem).mp4", "\(take)")
        #expect(take.markers.count == 1)

        let original = try MediaProbe.probe(path: folder + "/takes/" + take.file)
        let proxy = try MediaProbe.probe(path: folder + "/takes/Proxy/\(stem).mp4", decode: true)
        #expect(proxy.codec == "h264" && proxy.width == 640 && proxy.height == 360, "\(proxy)")
        #expect(proxy.frameCount == take.summary.frames && proxy.decodedFrames == proxy.frameCount, "\(proxy)")
        #expect(proxy.durationMicroseconds == original.durationMicroseconds)
        #expect(proxy.timecode == take.timecode && proxy.frameRate == original.frameRate, "\(proxy)")
        // Its keyframes are the take's, and only those: its fragments are the take's.
        let keyframes = try Self.keyframes(in: folder + "/takes/Proxy/\(stem).mp4")
        #expect(keyframes == (try Self.keyframes(in: folder + "/takes/" + take.file)) && keyframes.count == 3, "\(keyframes)")
        #expect(proxy.sound?.codec == "aac" && proxy.sound?.packets == original.sound?.packets, "\(proxy)")
    }

    /// An export joins its takes' proxies into the output folder's `Proxy`, under
    /// the export's name, with its timecode, chapters and sound; cleaning up
    /// moves each take's proxy to the trash with it.
    @Test(.timeLimit(.minutes(1))) func anExportsProxyJoinsItsTakesProxies() throws {
        let folder = try MediaFiles.folder("proxy-export")
        defer { MediaFiles.remove(folder) }
        let result = try Self.record(
            Run.macroRig("[takes.export]", camera: ["max-size: 1280x720", "proxy: 360p", "clean-up: true"]),
            [
                (Run.middle, 0.1, 0.15), (Run.middle, 1.2, 1.25), (Run.middle, 1.5, 1.55), (Run.middle, 2.5, 2.55),
                (Run.left, 2.8, 2.85),
            ], end: 4, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let exported = try #require(result.takes("exported").first)
        let path = try #require(exported["path"] as? String)
        let name = String(path.split(separator: "/").last!)
        #expect(exported["proxy"] as? String == folder + "/Proxy/" + name, "\(exported)")
        #expect((exported["message"] as? String)?.contains("proxy") == false, "\(exported)")
        let export = try MediaProbe.probe(path: path)
        let proxy = try MediaProbe.probe(path: folder + "/Proxy/" + name, decode: true)
        #expect(proxy.width == 640 && proxy.height == 360 && proxy.frameCount == export.frameCount, "\(proxy)")
        #expect(proxy.decodedFrames == proxy.frameCount && proxy.timecode == export.timecode, "\(proxy)")
        #expect(proxy.chapters == export.chapters && proxy.chapters.count == 2, "\(proxy.chapters)")
        #expect(proxy.sound?.codec == "aac" && abs(proxy.durationMicroseconds - export.durationMicroseconds) < 34_000)

        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 2 && takes.allSatisfy { $0.trashed != nil && $0.proxy != nil }, "\(takes)")
        for take in takes {
            let inTrash = folder + "/takes/trash/" + take.proxy!
            #expect(FileManager.default.fileExists(atPath: inTrash), "\(inTrash)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/takes/" + take.proxy!))
        }
    }

    /// A take whose proxy is gone: the export stands, without a proxy, and says why.
    @Test(.timeLimit(.minutes(1))) func anExportWhoseProxiesCannotBeJoinedStandsWithoutOne() throws {
        let folder = try MediaFiles.folder("proxy-export-fails")
        defer { MediaFiles.remove(folder) }
        let rig = Run.macroRig("[takes.export]", camera: ["max-size: 1280x720", "proxy: 360p"])
        let first = try Self.record(rig, [(Run.middle, 0.1, 0.15), (Run.middle, 1.1, 1.15)], end: 1.5, in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        try FileManager.default.removeItem(atPath: folder + "/takes/" + (take.proxy ?? ""))
        let result = try Self.record(rig, [(Run.left, 0.1, 0.15)], end: 1, in: folder)
        let exported = try #require(result.takes("exported").first, "\(result.lines)")
        let message = exported["message"] as? String ?? ""
        #expect(exported["proxy"] == nil && message.contains("the export has no proxy: cannot read proxy "), "\(exported)")
        let info = try MediaProbe.probe(path: try #require(exported["path"] as? String))
        #expect(info.frameCount == take.summary.frames)
        let after = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(after.count == 1 && after[0].kept != nil && !after[0].isExportable, "\(after)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder + "/Proxy")) ?? [] == [])
    }

    /// A take killed with its proxy: started again, Slate lists both as they
    /// were at their last fragment, the proxy playable to its end.
    @Test(.timeLimit(.minutes(1))) func aKilledTakesProxyIsRecoveredWithIt() throws {
        let folder = try MediaFiles.folder("proxy-kill")
        defer { MediaFiles.remove(folder) }
        try Run.macroRig("[take.mark]", camera: ["max-size: 1280x720", "proxy: 360p"])
            .write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        // A click starts a take that goes on until the session's end, a minute later.
        try Run.footswitch([(Run.middle, 0.1, 0.15)], end: 60)
            .write(toFile: folder + "/held.evemu", atomically: true, encoding: .utf8)
        let arguments = [
            "--profile", folder + "/rig.yaml", "--replay", folder + "/held.evemu", "--work", folder + "/takes", "--output",
            folder,
        ]
        let killed = try Run.run(arguments, signal: SIGKILL, after: .milliseconds(2800))
        #expect(killed.status == -SIGKILL)
        let again = try Run.run(arguments, signal: SIGTERM, after: .milliseconds(300))
        #expect(again.status == 0 && again.stderr.contains("recovered "), "\(again.stderr)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        #expect(!take.recording && take.proxy != nil, "\(take)")
        let original = try MediaProbe.probe(path: folder + "/takes/" + take.file)
        let proxy = try MediaProbe.probe(path: folder + "/takes/" + (take.proxy ?? ""), decode: true)
        // Each holds its complete fragments: a second at most lost of either, the proxy fragmented with the take.
        #expect(original.frameCount == take.summary.frames && original.frameCount >= 30, "\(original)")
        #expect(abs(proxy.frameCount - original.frameCount) <= 30 && proxy.decodedFrames == proxy.frameCount, "\(proxy)")
        #expect(proxy.timecode == take.timecode)
    }

    /// A camera no larger than the proxy: takes without one (the log says why).
    @Test(.timeLimit(.minutes(1))) func aCameraNoLargerThanTheProxyGetsNone() throws {
        let folder = try MediaFiles.folder("proxy-none")
        defer { MediaFiles.remove(folder) }
        let result = try Self.record(
            Run.macroRig("[take.delete-last]", camera: ["max-size: 640x360", "proxy: {size: 360p}"]),
            [(Run.middle, 0.1, 0.15), (Run.middle, 1.1, 1.15)], end: 1.5, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 1 && takes[0].proxy == nil)
        #expect(!FileManager.default.fileExists(atPath: folder + "/takes/Proxy"))
    }

    /// A proxy that cannot be created (a file where its folder should be): the
    /// take records without it, and a line says so.
    @Test(.timeLimit(.minutes(1))) func aProxyThatCannotBeCreatedLeavesTheTakeWhole() throws {
        let folder = try MediaFiles.folder("proxy-blocked")
        defer { MediaFiles.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/takes", withIntermediateDirectories: true)
        try "not a folder".write(toFile: folder + "/takes/Proxy", atomically: true, encoding: .utf8)
        let result = try Self.record(
            Run.macroRig("[take.delete-last]", camera: ["max-size: 1280x720", "proxy: 360p"]),
            [(Run.middle, 0.1, 0.15), (Run.middle, 1.1, 1.15)], end: 1.5, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let failed = result.takes("failed").compactMap { $0["message"] as? String }
        #expect(failed.count == 1 && failed[0].hasPrefix("take 1 is recorded without its proxy: "), "\(failed)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        #expect(take.proxy == nil && take.summary.frames == 30 && take.summary.dropped == 0, "\(take)")
    }

    /// Premiere Pro's naming; a take deleted to the trash takes its proxy with it, and brings it back.
    @Test(.timeLimit(.minutes(1))) func premieresProxiesFolderAndAProxyThatFollowsItsTakeToTheTrashAndBack() throws {
        let premiere = try MediaFiles.folder("proxy-premiere-2")
        defer { MediaFiles.remove(premiere) }
        let again = try Self.record(
            Run.macroRig(
                "[take.delete-last]", camera: ["max-size: 960x540", "proxy: {size: 360p, naming: premiere, bit-rate: 600k}"]),
            [(Run.middle, 0.1, 0.15), (Run.middle, 1.1, 1.15), (Run.left, 1.3, 1.35)], end: 1.5, in: premiere)
        #expect(again.status == 0, "\(again.stderr)")
        let take = try #require(try TakeFolder(path: premiere + "/takes", create: false).load().takes.first)
        let stem = String(take.file.dropLast(4))
        #expect(take.proxy == "Proxies/\(stem)_Proxy.mp4" && take.trashed != nil, "\(take)")
        let manager = FileManager.default
        #expect(!manager.fileExists(atPath: premiere + "/takes/Proxies/\(stem)_Proxy.mp4"))
        let trashed = premiere + "/takes/trash/Proxies/\(stem)_Proxy.mp4"
        let info = try MediaProbe.probe(path: trashed)
        #expect(info.width == 640 && info.height == 360 && info.frameCount == take.summary.frames, "\(info)")

        let folderOfTakes = try TakeFolder(path: premiere + "/takes", create: false)
        let ledger = try TakeLedger(folder: folderOfTakes)
        #expect(try folderOfTakes.restore(take, from: ledger))
        #expect(manager.fileExists(atPath: premiere + "/takes/Proxies/\(stem)_Proxy.mp4"))
        #expect(!manager.fileExists(atPath: trashed))
    }
}

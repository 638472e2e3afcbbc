import Foundation
import Glibc
import SlateCore
import SlateMedia
import SlateSystem
import Testing

/// Links planted under the names Slate writes, pointing at a file of the user's
/// (the victim) or at a path that does not exist: Slate never writes through
/// them, never creates their target, and the victim keeps its bytes.
@Suite struct PlantedLinkTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-planted-\(UUID().uuidString)").path
    var victim: String { root + "/victim.txt" }
    var missing: String { root + "/created-through-a-link" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "the user's own file".write(toFile: victim, atomically: false, encoding: .utf8)
    }

    func work() throws -> TakeFolder { try TakeFolder(path: root + "/takes", create: true) }

    func plant(_ name: String, in folder: String, to target: String) {
        #expect(symlink(target, folder + "/" + name) == 0, "planting \(name)")
    }

    func victimIsUntouched() throws {
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "the user's own file")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Writes `frames` test-pattern frames through `writer` and finishes the file.
    func record(_ frames: Int, with encoder: VideoEncoder, into writer: TakeWriter) throws {
        let pattern = TestPattern(width: 320, height: 180)
        for index in 0..<frames {
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
            for packet in try encoder.encode(frame, pts: Int64(index), keyframe: index == 0) { try writer.write(packet) }
        }
        for packet in encoder.flush() { try writer.write(packet) }
        try writer.finish()
    }

    @Test func theReserveFileIsNeverCreatedThroughALink() throws {
        let folder = try work()
        plant(".takes.reserve", in: folder.path, to: missing)
        try folder.reserveSpace()
        try victimIsUntouched()
    }

    @Test func theManifestIsNeverWrittenThroughALink() throws {
        let folder = try work()
        plant("takes.json", in: folder.path, to: victim)
        plant("takes.json.tmp-\(getpid())", in: folder.path, to: missing)
        plant(".takes.json.tmp-", in: folder.path, to: missing)
        try folder.save(TakeManifest(takes: [TakeManifestTests.take]))
        try victimIsUntouched()
        #expect(isRegularFile(folder.manifestPath))
        #expect(try folder.load().takes == [TakeManifestTests.take])
    }

    @Test func aManifestThatIsALinkIsNotRead() throws {
        let folder = try work()
        try TakeManifest(takes: [TakeManifestTests.take]).json.write(
            toFile: root + "/elsewhere.json", atomically: false, encoding: .utf8)
        plant("takes.json", in: folder.path, to: root + "/elsewhere.json")
        let failure = #expect(throws: TakeFolder.Failure.self) { try folder.load() }
        #expect("\(String(describing: failure))".contains("takes.json"))
    }

    @Test func aThumbnailIsNeverWrittenThroughALink() throws {
        let folder = try work()
        let name = "take-0001.jpg"
        plant(name + ".partial", in: folder.path, to: victim)
        plant(JPEGThumbnail.partialPrefix(for: name), in: folder.path, to: missing)
        plant(name, in: folder.path, to: victim)
        let frame = TestPattern(width: 320, height: 180).frame(index: 1, time: Instant(microseconds: 33_333))
        try JPEGThumbnail.write(frame, named: name, in: folder.directory, mode: 0o600)
        try victimIsUntouched()
        #expect(isRegularFile(folder.file(name)))
        #expect(try MediaProbe.probe(name, in: folder.directory).codec == "mjpeg")
    }

    @Test func aTakeIsWrittenToTheFileSlateCreatedEvenIfItsNameIsSwappedForALink() throws {
        let folder = try work()
        let encoder = try VideoEncoder(codecs: ["h264"], width: 320, height: 180, fps: 30)
        let writer = try TakeWriter(
            fd: try folder.create("take.mp4"), named: "take.mp4", in: folder.directory, parameters: encoder.parameters)
        #expect(rename(folder.file("take.mp4"), folder.file("moved.mp4")) == 0)
        plant("take.mp4", in: folder.path, to: victim)
        try record(30, with: encoder, into: writer)
        try victimIsUntouched()
        #expect(try MediaProbe.probe("moved.mp4", in: folder.directory).frameCount == 30)
    }

    @Test func aTakeFileIsNeverCreatedThroughALinkAndALinkIsNeverReadAsATake() throws {
        let folder = try work()
        plant("take.mp4", in: folder.path, to: missing)
        #expect(throws: OperationError.self) { try folder.create("take.mp4") }
        #expect(throws: MediaError.self) { try MediaProbe.probe("take.mp4", in: folder.directory) }
        try victimIsUntouched()
    }

    @Test func anExportIsNeverWrittenThroughALink() throws {
        let folder = try work()
        let output = root + "/exports"
        _ = try Folder(output, creating: 0o755)
        let encoder = try VideoEncoder(codecs: ["h264"], width: 320, height: 180, fps: 30)
        let writer = try TakeWriter(
            fd: try folder.create("take.mp4"), named: "take.mp4", in: folder.directory, parameters: encoder.parameters)
        try record(10, with: encoder, into: writer)
        try folder.save(
            TakeManifest(takes: [
                TakeManifest.Take(
                    id: "0001", file: "take.mp4", thumbnail: nil, started: 0,
                    summary: TakeSummary(duration: .microseconds(333_330), frames: 10),
                    codec: "h264", recording: false)
            ]))
        let at: Int64 = 1_795_253_112_000_000
        let name = ExportName.standard.fileName(rig: "slate", local: at)
        plant(name, in: output, to: victim)
        plant(name + ".partial", in: output, to: victim)
        plant("." + name + ".partial", in: output, to: missing)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: at)
        try victimIsUntouched()
        #expect(outcome.path == output + "/" + name.replacingOccurrences(of: ".mp4", with: "-2.mp4"))
        #expect(isRegularFile(outcome.path))
        #expect(try MediaProbe.probe(path: outcome.path).frameCount == 10)
    }
}

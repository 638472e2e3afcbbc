import Foundation
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import Synchronization
import Testing

@Suite struct TakeExporterTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-export-\(UUID().uuidString)").path

    func folders() throws -> (TakeFolder, String) {
        let folder = try TakeFolder(path: root + "/takes", create: true)
        _ = try Folder(root + "/out", creating: 0o755)
        return (folder, root + "/out")
    }

    /// A take of `frames` test-pattern frames at 30 fps, written as the recorder writes them.
    func addTake(
        _ folder: TakeFolder, _ name: String, frames: Int, width: Int = 320, height: Int = 180, codec: String = "h264",
        keyframeEvery: Int = 0
    ) throws {
        let encoder = try VideoEncoder(codecs: [codec], width: width, height: height, fps: 30)
        let writer = try TakeWriter(creating: folder.file(name), parameters: encoder.parameters)
        let pattern = TestPattern(width: width, height: height)
        for index in 0..<frames {
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
            let keyframe = index == 0 || (keyframeEvery > 0 && index % keyframeEvery == 0)
            for packet in try encoder.encode(frame, pts: Int64(index), keyframe: keyframe) { try writer.write(packet) }
        }
        for packet in encoder.flush() { try writer.write(packet) }
        try writer.finish()
        var manifest = try folder.load()
        manifest.takes.append(
            TakeManifest.Take(
                id: name, file: name, thumbnail: nil, started: 1_795_253_112_000_000,
                summary: TakeSummary(duration: .microseconds(Int64(frames) * 33_333), frames: frames),
                codec: encoder.parameters.codec, recording: false))
        try folder.save(manifest)
    }

    /// Every picture of a video file, decoded.
    func pictures(_ path: String) throws -> [VideoFrame] {
        let (folder, name) = Folder.split(path)
        let reader = try PacketReader(name, in: try Folder(folder))
        let decoder = try FrameDecoder(
            codec: reader.parameters.codec, extradata: reader.parameters.extradata, timeBase: reader.parameters.timeBase)
        var frames: [VideoFrame] = []
        while let packet = try reader.next() { frames += try decoder.decode(packet).map(\.frame) }
        return frames + (try decoder.flush().map(\.frame))
    }

    func mean(_ planes: [[UInt8]]) -> Double {
        let values = planes.joined()
        return Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count)
    }

    func spread(_ planes: [[UInt8]]) -> Double {
        let average = mean(planes)
        let values = planes.joined()
        return (values.reduce(0.0) { $0 + (Double($1) - average) * (Double($1) - average) } / Double(values.count)).squareRoot()
    }

    func files(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func takesAreJoinedByStreamCopyVerifiedAndOnlyThenCleanedUp() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        try addTake(folder, "take-b.mp4", frames: 45)
        try addTake(folder, "take-c.mp4", frames: 15)
        var fractions: [Double] = []
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 1_795_253_112_000_000, options: .init(cleanUp: true)) { fractions.append($0.fraction) }
        #expect(outcome.path == output + "/slate-20261121-092512.mp4")
        #expect(outcome.takes == 3 && outcome.frames == 90)
        #expect(outcome.method == .streamCopy && outcome.encoder == nil)
        let seconds = Double(outcome.duration.microseconds) / 1e6
        #expect(abs(seconds - 3.0) <= 0.034)
        let info = try MediaProbe.probe(path: outcome.path, decode: true)
        #expect(info.frameCount == 90 && info.decodedFrames == 90)
        #expect(fractions.last == 1)
        #expect(fractions == fractions.sorted())
        #expect(files(output) == ["slate-20261121-092512.mp4"])
        #expect(files(folder.path) == ["takes.json", "trash"])
        #expect(files(folder.file("trash")) == ["take-a.mp4", "take-b.mp4", "take-c.mp4"])
        #expect(try folder.load().takes.allSatisfy { $0.trashed == 1_795_253_112_000_000 && !$0.isExportable })
    }

    @Test func monoRemovesColourAndSoftensContrast() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 8)
        try addTake(folder, "take-b.mp4", frames: 7)
        let source = try pictures(folder.file("take-a.mp4")) + pictures(folder.file("take-b.mp4"))
        var fractions: [Double] = []
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 0, options: .init(filter: .mono)) { fractions.append($0.fraction) }
        #expect(outcome.method == .reencode(reason: "the mono filter is applied"))
        #expect(outcome.encoder == "libx264")
        #expect(outcome.frames == 15 && fractions.last == 1)
        let exported = try pictures(outcome.path)
        #expect(exported.count == 15)
        let chroma = exported.flatMap { $0.u + $0.v }
        #expect(chroma.allSatisfy { abs(Int($0) - 128) <= 3 })
        let before = spread(source.map(\.y)), after = spread(exported.map(\.y))
        #expect(after < before * 0.92 && after > before * 0.75)
        #expect(abs(mean(exported.map(\.y)) - (mean(source.map(\.y)) * 0.85 + 128 * 0.15)) < 4)
        #expect(try folder.load().takes.allSatisfy { $0.kept?.hasPrefix("joined into") == true })
    }

    @Test func sepiaTintsEveryPixelWarm() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(
            at: 0, options: .init(filter: .sepia))
        #expect(outcome.method == .reencode(reason: "the sepia filter is applied"))
        let exported = try pictures(outcome.path)
        #expect(exported.count == 10)
        #expect(mean(exported.map(\.u)) < 122 && mean(exported.map(\.v)) > 131)
        let samples = exported.flatMap { frame in frame.u.indices.map { (frame.u[$0], frame.v[$0]) } }
        let greys = samples.filter { $0.0 >= 128 && $0.1 <= 128 }
        #expect(Double(greys.count) / Double(samples.count) < 0.01)
    }

    @Test func takesOfDifferentSizesAreJoinedByReencodeAtTheFirstSize() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 12, width: 320, height: 240)
        try addTake(folder, "take-b.mp4", frames: 9, width: 160, height: 120)
        var fractions: [Double] = []
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0) {
            fractions.append($0.fraction)
        }
        #expect(
            outcome.method
                == .reencode(reason: "\(folder.file("take-b.mp4")) is 160x120, \(folder.file("take-a.mp4")) is 320x240"))
        #expect(outcome.takes == 2 && outcome.frames == 21)
        #expect(abs(Double(outcome.duration.microseconds) / 1e6 - 0.7) <= 0.034)
        let info = try MediaProbe.probe(path: outcome.path, decode: true)
        #expect(info.width == 320 && info.height == 240)
        #expect(info.frameCount == 21 && info.decodedFrames == 21)
        #expect(fractions.last == 1 && fractions == fractions.sorted())
        #expect(try folder.load().takes.allSatisfy { $0.kept?.hasPrefix("joined into") == true })
    }

    /// Two takes with timecodes and markers exported by stream copy or, through a filter, by re-encoding:
    /// a chapter at each take's start and each marker, at their places in the export, and the first take's timecode.
    @Test(arguments: [ExportFilter.none, .mono]) func exportsHaveAChapterAtEachTakeAndMarker(filter: ExportFilter) throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        try addTake(folder, "take-b.mp4", frames: 15)
        var manifest = try folder.load()
        manifest.takes[0].timecode = "10:07:03:12"
        manifest.takes[0].markers = [TakeMarker(at: .milliseconds(500), name: "Applause", timecode: "10:07:03:27")]
        manifest.takes[1].timecode = "10:08:00:00"
        manifest.takes[1].markers = [TakeMarker(at: .milliseconds(200), name: nil, timecode: "10:08:00:06")]
        try folder.save(manifest)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 0, options: .init(filter: filter, rig: "cam-a"))
        let info = try MediaProbe.probe(path: outcome.path)
        #expect(
            info.chapters.map(\.title) == [
                "Take 1 · 10:07:03:12 · cam-a", "Applause · 10:07:03:27", "Take 2 · 10:08:00:00 · cam-a",
                "Marker 1 · 10:08:00:06",
            ])
        // Take 2 starts where take 1's 30 frames end, give or take a frame's rounding.
        let starts = info.chapters.map(\.start)
        let expected: [Int64] = [0, 500_000, 1_000_000, 1_200_000]
        #expect(zip(starts, expected).allSatisfy { abs($0 - $1) <= 1_000 }, "\(starts)")
        #expect(info.timecode == "10:07:03:12")
        // The takes' colours, stated again by a stream copy and by the encoder.
        #expect(info.color == MediaInfo.Color(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv"))
    }

    @Test func takesOfDifferentCodecsAreJoinedByReencodeWithTheFirstCodec() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10, codec: "h264")
        try addTake(folder, "take-b.mp4", frames: 10, codec: "mpeg4")
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        #expect(
            outcome.method == .reencode(reason: "\(folder.file("take-b.mp4")) is mpeg4, \(folder.file("take-a.mp4")) is h264"))
        let info = try MediaProbe.probe(path: outcome.path, decode: true)
        #expect(info.codec == "h264" && info.frameCount == 20 && info.decodedFrames == 20)
        #expect(abs(Double(info.durationMicroseconds) / 1e6 - 20.0 / 30) <= 0.034)
        #expect(files(output) == ["slate-19700101-000000.mp4"])
    }

    @Test func aFailedReencodeKeepsEveryTakeAndNoPartialFile() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10)
        // A take of H.264 slices whose bytes are noise: it opens, but does not decode.
        let encoder = try VideoEncoder(codecs: ["h264"], width: 320, height: 180, fps: 30)
        let writer = try TakeWriter(creating: folder.file("take-b.mp4"), parameters: encoder.parameters)
        for index in 0..<10 {
            let noise = [0, 0, 0, 1, 0x41] + (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index &* 11) }
            try writer.write(
                EncodedPacket(data: noise, pts: Int64(index), dts: Int64(index), duration: 1, isKeyframe: index == 0))
        }
        try writer.finish()
        var manifest = try folder.load()
        manifest.takes.append(
            TakeManifest.Take(
                id: "take-b.mp4", file: "take-b.mp4", thumbnail: nil, started: 0,
                summary: TakeSummary(duration: .milliseconds(333), frames: 10),
                codec: "h264", recording: false))
        try folder.save(manifest)
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(
                at: 0, options: .init(filter: .mono))
        }
        #expect(failure?.description.hasPrefix(folder.file("take-b.mp4") + ": cannot decode a frame") == true)
        #expect(failure?.description.hasSuffix("the takes are kept") == true)
        #expect(try folder.load().takes.count == 2)
        #expect(files(folder.path) == ["take-a.mp4", "take-b.mp4", "takes.json"])
        #expect(files(output).isEmpty)
    }

    /// The types of an MP4 file's top-level boxes, in file order.
    func boxes(_ path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var types: [String] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }

    /// The file's container tags as ffprobe reads them; nil, with a warning, without ffprobe.
    func tags(_ path: String) throws -> [String: String]? {
        guard let ffprobe = MediaFiles.ffprobe else {
            Issue.record(
                "ffprobe is not installed (Debian package ffmpeg): the tags of \(path) were not checked", severity: .warning)
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1:nk=0", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var tags: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("TAG:") {
            let parts = line.dropFirst(4).split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { tags[parts[0]] = parts[1] }
        }
        return tags
    }

    /// Takes stay fragmented; the export, by stream copy or re-encoded, is a
    /// finished MP4: one index (moov) before the media data, no fragments, the
    /// first take's start as creation_time and Slate as encoder.
    @Test(arguments: [ExportFilter.none, .mono])
    func theExportIsAFinishedMP4WithItsIndexFirst(filter: ExportFilter) throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 20, keyframeEvery: 5)
        try addTake(folder, "take-b.mp4", frames: 10)
        let take = try boxes(folder.file("take-a.mp4"))
        #expect(take.filter { $0 == "moof" }.count == 4 && take.firstIndex(of: "moov")! < take.firstIndex(of: "moof")!, "\(take)")
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 1_795_300_000_000_000, options: .init(filter: filter))
        #expect(outcome.method == (filter == .none ? .streamCopy : .reencode(reason: "the mono filter is applied")))
        let layout = try boxes(outcome.path)
        #expect(Array(layout.prefix(2)) == ["ftyp", "moov"] && layout.contains("mdat"), "\(layout)")
        #expect(
            layout.filter { $0 == "moov" }.count == 1 && !layout.contains { ["moof", "mfra", "sidx"].contains($0) }, "\(layout)")
        let info = try MediaProbe.probe(path: outcome.path, decode: true)
        #expect(info.frameCount == 30 && info.decodedFrames == 30)
        if let tags = try tags(outcome.path) {
            #expect(tags["creation_time"] == "2026-11-21T09:25:12.000000Z", "\(tags)")
            #expect(tags["encoder"] == "Slate \(SlateVersion.current)", "\(tags)")
        }
    }

    /// What the filters give, read back from exported files: mono has no
    /// colour; sepia has the filter's brown in every pixel.
    @Test func exportedFiltersReadBackWithTheirColour() throws {
        for (filter, cb, cr) in [(ExportFilter.mono, 128, 128), (.sepia, 110, 139)] {
            let (folder, output) = try folders()
            try addTake(folder, "take-\(filter).mp4", frames: 6)
            let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
                .export(at: 0, options: .init(filter: filter))
            let chroma = try pictures(outcome.path).flatMap { frame in frame.u.indices.map { (frame.u[$0], frame.v[$0]) } }
            #expect(chroma.count == 6 * 160 * 90)
            let off = chroma.filter { abs(Int($0.0) - cb) > 3 || abs(Int($0.1) - cr) > 3 }
            #expect(Double(off.count) / Double(chroma.count) < 0.005, "\(filter): \(off.prefix(5))")
            try FileManager.default.removeItem(atPath: root)
        }
    }

    @Test(arguments: [ExportFilter.none, .sepia])
    func anUnwritableOutputKeepsEveryTake(filter: ExportFilter) throws {
        let (folder, _) = try folders()
        try addTake(folder, "take-a.mp4", frames: 10)
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: "/proc/slate-exports").export(
                at: 0, options: .init(filter: filter))
        }
        #expect(failure?.description.hasSuffix("the takes are kept") == true)
        #expect(try folder.load().takes.count == 1)
        #expect(files(folder.path) == ["take-a.mp4", "takes.json"])
    }

    @Test func nothingToExportIsAnError() throws {
        let (folder, output) = try folders()
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        }
        #expect(failure?.description == "no takes to export in \(folder.path)")
    }

    /// Where each top-level `moof` box (a fragment) starts in an MP4 file.
    func fragmentOffsets(_ path: String) throws -> [Int] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var offsets: [Int] = []
        var at = 0
        while at + 8 <= bytes.count {
            let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[at + 4..<at + 8], as: UTF8.self) == "moof" { offsets.append(at) }
            guard size >= 8 else { break }
            at += size
        }
        return offsets
    }

    /// Overwrites `count` bytes of the file at `offset` with 0xFF.
    func damage(_ path: String, at offset: Int, count: Int) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: count))
        try handle.close()
    }

    @Test func twoExportsInOneSecondKeepBothFiles() throws {
        let (folder, output) = try folders()
        let ledger = try TakeLedger(folder: folder)
        try addTake(folder, "take-a.mp4", frames: 30)
        let first = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(
            at: 1_795_253_112_000_000)
        try addTake(folder, "take-b.mp4", frames: 15)
        let second = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(
            at: 1_795_253_112_400_000)
        #expect(first.path == output + "/slate-20261121-092512.mp4")
        #expect(second.path == output + "/slate-20261121-092512-2.mp4")
        #expect(try MediaProbe.probe(path: first.path).frameCount == 30)
        #expect(try MediaProbe.probe(path: second.path).frameCount == 15)
        #expect(files(output) == ["slate-20261121-092512-2.mp4", "slate-20261121-092512.mp4"])
        _ = ledger
    }

    @Test func exportsAtTheSameMomentFromTwoFoldersUseTheirOwnPartialFiles() throws {
        let (folder, output) = try folders()
        let other = try TakeFolder(path: root + "/other", create: true)
        try addTake(folder, "take-a.mp4", frames: 60)
        try addTake(other, "take-b.mp4", frames: 45)
        let exporters = [
            TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output),
            TakeExporter(ledger: try TakeLedger(folder: other), outputFolder: output),
        ]
        let results = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            if let outcome = try? exporters[index].export(at: 0, options: .init(filter: .mono)) {
                results.withLock { $0.append((try? MediaProbe.probe(path: outcome.path).frameCount) ?? -1) }
            }
        }
        #expect(results.withLock { $0.sorted() } == [45, 60])
        #expect(files(output) == ["slate-19700101-000000-2.mp4", "slate-19700101-000000.mp4"])
    }

    @Test func aTakeDamagedInItsSecondFragmentIsNotExportedShortOrDeleted() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        try addTake(folder, "take-b.mp4", frames: 90, keyframeEvery: 30)
        let fragments = try fragmentOffsets(folder.file("take-b.mp4"))
        #expect(fragments.count == 3)
        try damage(folder.file("take-b.mp4"), at: fragments[1] + 8, count: 64)
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        }
        let message = failure?.description ?? ""
        #expect(message.hasPrefix(folder.file("take-b.mp4") + " reads "), "\(message)")
        #expect(message.contains("of its 90 frames") && message.contains("every take is kept"), "\(message)")
        #expect(files(output).isEmpty)
        #expect(files(folder.path) == ["take-a.mp4", "take-b.mp4", "takes.json"])
        #expect(try folder.load().takes.map(\.file) == ["take-a.mp4", "take-b.mp4"])
    }

    @Test func acceptingShortTakesExportsWhatIsReadableAndKeepsTheDamagedFile() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        try addTake(folder, "take-b.mp4", frames: 90, keyframeEvery: 30)
        let fragments = try fragmentOffsets(folder.file("take-b.mp4"))
        try damage(folder.file("take-b.mp4"), at: fragments[1] + 8, count: 64)
        let ledger = try TakeLedger(folder: folder)
        let outcome = try TakeExporter(ledger: ledger, outputFolder: output).export(
            at: 0, options: .init(acceptShort: true))
        let short = try #require(outcome.short.first)
        #expect(outcome.short.count == 1 && short.path == folder.file("take-b.mp4") && short.listed == 90)
        #expect(short.read >= 30 && short.read < 90)
        #expect(outcome.frames == 30 + short.read)
        #expect(try MediaProbe.probe(path: outcome.path).frameCount == outcome.frames)
        #expect(files(folder.path) == ["take-a.mp4", "take-b.mp4", "takes.json"])
        let kept = try #require(try folder.load().takes.last)
        #expect(try folder.load().takes.count == 2 && kept.file == "take-b.mp4")
        #expect(kept.kept?.contains("slate-19700101-000000.mp4") == true && !kept.isExportable)
        #expect(ledger.availableCount == 0)
    }

    @Test func byDefaultTheTakesStayInTheWorkFolderOutOfTheList() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        let ledger = try TakeLedger(folder: folder)
        let outcome = try TakeExporter(ledger: ledger, outputFolder: output).export(at: 0)
        #expect(outcome.kept && outcome.frames == 30)
        #expect(files(folder.path) == ["take-a.mp4", "takes.json"])
        let take = try #require(try folder.load().takes.first)
        #expect(take.file == "take-a.mp4" && take.kept == "joined into slate-19700101-000000.mp4" && !take.isExportable)
        #expect(ledger.availableCount == 0)
        #expect(files(output) == ["slate-19700101-000000.mp4"])
    }

    @Test func cleaningUpMovesTheTakesToTheTrashAndTheyComeBack() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("take-a.mp4")))
        let ledger = try TakeLedger(folder: folder)
        let outcome = try TakeExporter(ledger: ledger, outputFolder: output).export(
            at: 5_000_000, options: .init(cleanUp: true))
        #expect(!outcome.kept)
        #expect(files(folder.path) == ["takes.json", "trash"])
        #expect(files(folder.file("trash")) == ["take-a.mp4"])
        let take = try #require(try folder.load().takes.first)
        #expect(take.trashed == 5_000_000 && take.exported == "slate-19700101-000005.mp4" && ledger.availableCount == 0)
        #expect(folder.location(of: take) == folder.file("trash/take-a.mp4"))
        #expect(try folder.restore(take, from: ledger))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("take-a.mp4"))) == before)
        #expect(ledger.availableCount == 1 && ledger.manifest.takes.first?.trashed == nil)
    }

    @Test func onlyTheReservedTakesAreExported() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", frames: 30)
        let ledger = try TakeLedger(folder: folder)
        let ids = ledger.reserveAvailable()
        try addTake(folder, "take-b.mp4", frames: 15)
        let later = try TakeLedger(folder: folder)
        let outcome = try TakeExporter(ledger: later, outputFolder: output).export(ids: ids, at: 0)
        #expect(outcome.takes == 1 && outcome.frames == 30)
        #expect(try folder.load().takes.filter(\.isExportable).map(\.file) == ["take-b.mp4"])
    }
}

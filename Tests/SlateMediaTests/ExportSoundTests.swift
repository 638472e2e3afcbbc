import Foundation
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import Testing

/// Exports of takes with sound: the sound copied or encoded again beside the
/// picture, each take's 1 kHz burst where its take is in the export, to the
/// millisecond, and the sound verified against the picture.
@Suite struct ExportSoundTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-export-sound-\(UUID().uuidString)").path
    static let mono48 = AudioFormat(rate: 48000, channels: 1)

    func folders() throws -> (TakeFolder, String) {
        let folder = try TakeFolder(path: root + "/takes", create: true)
        _ = try Folder(root + "/out", creating: 0o755)
        return (folder, root + "/out")
    }

    /// What becomes of a take's sound as it is recorded.
    enum Mishap {
        case none
        /// The sound card goes away after this many seconds: the sound ends there.
        case stopsAt(Double)
        /// The packets made between these seconds are lost: a hole in the sound.
        case holeFrom(Double, to: Double)
    }

    /// A take of `seconds` of the test pattern at 30 fps listed in takes.json, with
    /// `burst` (seconds into the take) in its sound of `format`, or no sound when nil;
    /// the sound's packets written before each frame's, as the take pipeline does.
    func addTake(
        _ folder: TakeFolder, _ name: String, seconds: Double, burst: Double?, format: AudioFormat = mono48,
        mishap: Mishap = .none
    ) throws {
        let frames = Int(seconds * 30)
        let video = try VideoEncoder(codecs: ["h264"], width: 160, height: 96, fps: 30)
        let audio = burst == nil ? nil : try AudioEncoder(codec: .aac, format: format)
        let file = try folder.directory.create(name, mode: 0o644)
        let writer = try TakeWriter(
            fd: file, named: name, in: folder.directory, parameters: video.parameters, sound: audio?.parameters)
        let total = Int(seconds * Double(format.rate))
        let sound = burst.map { SoundTakeTests.burst(at: Int($0 * Double(format.rate)), frames: total, format: format) } ?? []
        let pattern = TestPattern(width: 160, height: 96)
        var fed = 0
        var stopped = false
        for index in 0..<frames {
            let time = Double(index + 1) / 30
            if let audio, !stopped {
                let upTo = min(total, Int(time * Double(format.rate)))
                var packets = try audio.encode(Array(sound[(fed * format.channels)..<(upTo * format.channels)]))
                fed = upTo
                if case .stopsAt(let end) = mishap, time >= end {
                    packets += try audio.flush()
                    stopped = true
                }
                if case .holeFrom(let from, let to) = mishap, time > from && time <= to { packets = [] }
                for packet in packets { try writer.writeSound(packet) }
            }
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 1_000_000 / 30))
            for packet in try video.encode(frame, pts: Int64(index)) { try writer.write(packet) }
        }
        if let audio, !stopped { for packet in try audio.flush() { try writer.writeSound(packet) } }
        for packet in video.flush() { try writer.write(packet) }
        try writer.finish()
        var manifest = try folder.load()
        manifest.takes.append(
            TakeManifest.Take(
                id: name, file: name, thumbnail: nil, started: 1_795_253_112_000_000,
                summary: TakeSummary(duration: .microseconds(Int64(frames) * 1_000_000 / 30), frames: frames),
                codec: video.parameters.codec,
                recording: false))
        try folder.save(manifest)
    }

    /// Where each burst starts in `decoded` (µs of the file's timeline): the first
    /// loud frame after each quiet stretch of at least 100 ms.
    static func onsets(in decoded: SoundReader.Decoded) -> [Int64] {
        var onsets: [Int64] = []
        var lastLoud = -Int.max / 2
        let channels = decoded.format.channels
        for frame in 0..<decoded.frames where abs(Int(decoded.samples[frame * channels])) > 8000 {
            if frame - lastLoud > decoded.format.rate / 10 {
                onsets.append(decoded.start + Int64(frame) * 1_000_000 / Int64(decoded.format.rate))
            }
            lastLoud = frame
        }
        return onsets
    }

    /// The loudest sample of `decoded` between `from` and `to` µs, in dB below full scale.
    static func peak(in decoded: SoundReader.Decoded, from: Int64, to: Int64) -> Double {
        let rate = Int64(decoded.format.rate)
        let first = max(0, Int((from - decoded.start) * rate / 1_000_000)) * decoded.format.channels
        let last = min(decoded.frames, Int((to - decoded.start) * rate / 1_000_000)) * decoded.format.channels
        guard first < last else { return -.infinity }
        let loudest = decoded.samples[first..<last].map { abs(Int($0)) }.max() ?? 0
        return 20 * log10(max(Double(loudest), 0.5) / 32768)
    }

    /// The export's sound and picture: the bursts, and how long each lasts.
    func measure(_ path: String) throws -> (onsets: [Int64], decoded: SoundReader.Decoded, info: MediaInfo, sound: SoundInfo) {
        let info = try MediaProbe.probe(path: path, decode: true)
        let sound = try #require(info.sound)
        let decoded = try #require(try SoundReader.open(path: path)).decodeAll()
        return (Self.onsets(in: decoded), decoded, info, sound)
    }

    func files(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Each burst within `tolerance` µs of where it is expected.
    func expectBursts(_ onsets: [Int64], at expected: [Int64], tolerance: Int64 = 1000) {
        #expect(onsets.count == expected.count, "bursts at \(onsets) µs, expected at \(expected) µs")
        for (onset, time) in zip(onsets, expected) {
            #expect(abs(onset - time) <= tolerance, "a burst at \(onset) µs, expected at \(time) µs")
        }
    }

    @Test(arguments: [ExportFilter.none, .mono])
    func twoTakesSoundIsCopiedEachBurstAtItsTakesOffset(filter: ExportFilter) throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 2, burst: 0.5)
        try addTake(folder, "take-b.mp4", seconds: 1.5, burst: 0.3)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 0, options: .init(filter: filter))
        #expect(outcome.method == (filter == .none ? .streamCopy : .reencode(reason: "the mono filter is applied")))
        #expect(outcome.sound == .copy && outcome.soundEncoder == nil && outcome.soundSummary == "copied")
        let (onsets, decoded, info, sound) = try measure(outcome.path)
        #expect(info.frameCount == 105 && info.decodedFrames == 105)
        #expect(sound.codec == "aac" && sound.format == Self.mono48)
        #expect(
            abs(sound.durationMicroseconds - info.durationMicroseconds) <= 21_334,
            "sound \(sound.durationMicroseconds) µs, picture \(info.durationMicroseconds) µs")
        // Take b's packets start where take a's kept packets end, at the
        // packet boundary nearest its offset: take a's 96000 frames end
        // 1024 frames into a packet after its priming, the boundary 256
        // frames later (5.333 ms) is nearer than the one 768 frames before.
        let moved: Int64 = 256 * 1_000_000 / 48000
        expectBursts(onsets, at: [500_000, 2_300_000 + moved])
        // Take b's priming, where take a's sound ends: silence stays silence.
        let junction = Self.peak(in: decoded, from: 1_950_000, to: 2_050_000)
        #expect(junction < -60, "\(junction) dBFS around the join")
        #expect(try folder.load().takes.allSatisfy { $0.kept?.hasPrefix("joined into") == true })
    }

    /// ffprobe's packets of the file, in file order: stream kind, time and byte position.
    func packets(_ path: String) throws -> [(kind: String, time: Double, position: Int)]? {
        guard let ffprobe = MediaFiles.ffprobe else {
            Issue.record(
                "ffprobe is not installed (Debian package ffmpeg): \(path)'s interleaving was not checked", severity: .warning)
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = ["-v", "error", "-show_entries", "packet=codec_type,dts_time,pos", "-of", "csv=p=0", path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map(String.init)
            guard fields.count == 3, let time = Double(fields[1]), let position = Int(fields[2]) else { return nil }
            return (fields[0], time, position)
        }.sorted { $0.position < $1.position }
    }

    /// The export plays from its start without seeking: its sound is in the
    /// file beside the picture of the same time, never more than 0.1 s apart.
    @Test(arguments: [ExportFilter.none, .mono])
    func theSoundIsInterleavedWithThePicture(filter: ExportFilter) throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 2, burst: 0.5)
        try addTake(folder, "take-b.mp4", seconds: 1, burst: 0.3, format: AudioFormat(rate: 44100, channels: 1))
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 0, options: .init(filter: filter))
        guard let packets = try packets(outcome.path) else { return }
        #expect(packets.filter { $0.kind == "audio" }.count > 100 && packets.filter { $0.kind == "video" }.count == 90)
        var latest = (audio: -Double.infinity, video: -Double.infinity)
        for packet in packets {
            if packet.kind == "audio" {
                latest.audio = max(latest.audio, packet.time)
                #expect(latest.video - packet.time < 0.1, "sound at \(packet.time) s after picture at \(latest.video) s")
            } else {
                latest.video = max(latest.video, packet.time)
                #expect(latest.audio - packet.time < 0.1, "picture at \(packet.time) s after sound at \(latest.audio) s")
            }
        }
    }

    @Test func takesOfOtherSoundFormatsAreReencodedInTheFirstTakesFormat() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 2, burst: 0.5)
        try addTake(folder, "take-b.mp4", seconds: 1.5, burst: 0.3, format: AudioFormat(rate: 44100, channels: 2))
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        #expect(outcome.method == .streamCopy)
        let reason =
            "\(folder.file("take-b.mp4"))'s sound is aac 44100 Hz stereo, \(folder.file("take-a.mp4"))'s is aac 48000 Hz mono"
        #expect(outcome.sound == .reencode(reason: reason))
        #expect(outcome.soundSummary == "re-encoded with aac (\(reason))")
        let (onsets, _, info, sound) = try measure(outcome.path)
        #expect(sound.codec == "aac" && sound.format == Self.mono48)
        #expect(
            abs(sound.durationMicroseconds - info.durationMicroseconds) <= 21_334,
            "sound \(sound.durationMicroseconds) µs, picture \(info.durationMicroseconds) µs")
        expectBursts(onsets, at: [500_000, 2_300_000])
        #expect(try folder.load().takes.allSatisfy { $0.kept?.hasPrefix("joined into") == true })
    }

    @Test func aTakeWithoutSoundIsSilenceInTheExport() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 1, burst: 0.5)
        try addTake(folder, "take-b.mp4", seconds: 1, burst: nil)
        try addTake(folder, "take-c.mp4", seconds: 1, burst: 0.2)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output)
            .export(at: 0, options: .init(filter: .sepia))
        #expect(outcome.sound == .reencode(reason: "\(folder.file("take-b.mp4")) has no sound"))
        let (onsets, decoded, info, sound) = try measure(outcome.path)
        #expect(info.frameCount == 90)
        #expect(abs(sound.durationMicroseconds - info.durationMicroseconds) <= 21_334)
        expectBursts(onsets, at: [500_000, 2_200_000])
        let silence = Self.peak(in: decoded, from: 1_030_000, to: 1_970_000)
        #expect(silence < -60, "take b's second plays at \(silence) dBFS")
    }

    @Test func noTakeWithSoundMeansAnExportWithoutSound() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 1, burst: nil)
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        #expect(outcome.sound == nil && outcome.soundSummary == nil)
        #expect(try MediaProbe.probe(path: outcome.path).sound == nil)
        #expect(ExportLine(outcome).sound == nil)
    }

    /// A sound card unplugged mid-take: the take's sound stops early. That is a
    /// take like any other; silence fills the rest of its span in the export.
    @Test func soundThatStopsEarlyIsFilledWithSilence() throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 2, burst: 0.5)
        try addTake(folder, "take-b.mp4", seconds: 2, burst: 0.3, mishap: .stopsAt(1))
        let outcome = try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        guard case .reencode(let reason) = outcome.sound else {
            Issue.record("the sound was \(String(describing: outcome.sound))")
            return
        }
        #expect(
            reason.hasPrefix("\(folder.file("take-b.mp4"))'s sound stops 0.9") && reason.hasSuffix("s before its picture"),
            "\(reason)")
        let (onsets, decoded, info, sound) = try measure(outcome.path)
        #expect(
            abs(sound.durationMicroseconds - info.durationMicroseconds) <= 21_334,
            "sound \(sound.durationMicroseconds) µs, picture \(info.durationMicroseconds) µs")
        expectBursts(onsets, at: [500_000, 2_300_000])
        #expect(Self.peak(in: decoded, from: 3_050_000, to: 3_950_000) < -60)
        #expect(try folder.load().takes.allSatisfy { $0.kept?.hasPrefix("joined into") == true })
        #expect(ExportLine(outcome).sound == "re-encoded with aac (\(reason))")
    }

    /// A hole in a take's sound (packets lost mid-take): what follows it cannot
    /// be placed, so the joined file does not hold the sound planned and the
    /// export fails, copied or re-encoded, and keeps every take.
    @Test(arguments: [48000, 44100])
    func aHoleInATakesSoundFailsTheExportAndKeepsTheTakes(firstRate: Int) throws {
        let (folder, output) = try folders()
        try addTake(folder, "take-a.mp4", seconds: 2, burst: 0.5, format: AudioFormat(rate: firstRate, channels: 1))
        try addTake(folder, "take-b.mp4", seconds: 2, burst: 0.3, mishap: .holeFrom(1, to: 1.5))
        let failure = #expect(throws: TakeExporter.Failure.self) {
            try TakeExporter(ledger: try TakeLedger(folder: folder), outputFolder: output).export(at: 0)
        }
        let message = failure?.description ?? ""
        let take = folder.file("take-b.mp4")
        if firstRate == 48000 {
            #expect(
                message.hasPrefix("\(take)'s sound is 0.5") && message.contains("s short of its picture in the joined file"),
                "\(message)")
        } else {
            #expect(message.hasPrefix("\(take)'s sound decodes to 1.4") && message.contains("(a gap in it)"), "\(message)")
        }
        #expect(message.hasSuffix("the takes are kept"), "\(message)")
        #expect(files(folder.path) == ["take-a.mp4", "take-b.mp4", "takes.json"])
        #expect(try folder.load().takes.count == 2)
        #expect(files(output).isEmpty)
    }
}

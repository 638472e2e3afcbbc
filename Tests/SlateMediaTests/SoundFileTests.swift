import Foundation
import SlateCore
import Testing

@testable import SlateMedia

/// The repository's `sounds/` folder.
private let soundsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("sounds").path

// MARK: Building WAV files

private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
private func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

private func chunk(_ id: String, _ body: [UInt8], size: Int? = nil) -> [UInt8] {
    Array(id.utf8) + le32(size ?? body.count) + body + (body.count % 2 == 1 ? [0] : [])
}

private func fmt(
    code: Int = 1, channels: Int = 1, rate: Int = 48000, bits: Int = 16, blockAlign: Int? = nil, extra: [UInt8] = []
) -> [UInt8] {
    let align = blockAlign ?? channels * bits / 8
    return chunk(
        "fmt ", le16(code) + le16(channels) + le32(rate) + le32(rate * align) + le16(align) + le16(bits) + extra)
}

private func riff(_ chunks: [UInt8], size: Int? = nil) -> [UInt8] {
    Array("RIFF".utf8) + le32(size ?? chunks.count + 4) + Array("WAVE".utf8) + chunks
}

private func wav(_ format: [UInt8] = fmt(), data: [UInt8] = [0, 0, 1, 0]) -> [UInt8] {
    riff(format + chunk("data", data))
}

/// `bytes` written to a file of their own, read as a sound file.
private func read(_ bytes: [UInt8], name: String = "t.wav", maximumSamples: Int = SoundClip.maximumSamples) throws(SoundFileError)
    -> SoundClip
{
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sound-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(name).path
    // Written again after a failure (once in thousands, beside tests that hold many descriptors), which is recorded.
    var failures: [String] = []
    for _ in 0..<3 {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            break
        } catch {
            failures.append("\(error)")
        }
    }
    #expect(failures.count < 3, "\(path) could not be written: \(failures)")
    if !failures.isEmpty { print("sound file test: \(path) written after \(failures)") }
    return try SoundFile.read(path: path, maximumSamples: maximumSamples)
}

/// Why `bytes` cannot be played, or nil when they can.
private func error(_ bytes: [UInt8], name: String = "t.wav") -> String? {
    do {
        _ = try read(bytes, name: name)
        return nil
    } catch {
        return error.message
    }
}

@Suite struct ShippedSoundTests {
    @Test(arguments: [("shutter", 4800), ("begin-video-recording", 12000), ("end-video-recording", 12000)])
    func shippedSound(name: String, frames: Int) throws {
        let sound = try SoundFile.read(path: soundsFolder + "/" + name + ".wav")
        #expect(sound.sampleRate == 48000)
        #expect(sound.channels == 1)
        #expect(sound.codec == "pcm_s16le")
        #expect(sound.frameCount == frames)
        #expect(sound.samples.count == frames)
        #expect(sound.duration == .milliseconds(frames / 48))
        // Audible, and not clipped: at most -1 dBFS, at least -12 dBFS.
        #expect(sound.peak < 29205)
        #expect(sound.peak > 8230)
        let rms = (sound.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frames)).squareRoot()
        #expect(rms > 1000, "RMS \(rms)")
        // The last sample fades to silence: no click at the end.
        #expect(abs(Int(sound.samples.last!)) < 64)
    }

    @Test func tonesRiseAndFall() throws {
        // Zero crossings in each half: the higher tone crosses more often.
        func crossings(_ samples: ArraySlice<Int16>) -> Int {
            zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        }
        let begin = try SoundFile.read(path: soundsFolder + "/begin-video-recording.wav").samples
        let end = try SoundFile.read(path: soundsFolder + "/end-video-recording.wav").samples
        #expect(crossings(begin[..<6000]) < crossings(begin[6000...]))
        #expect(crossings(end[..<6000]) > crossings(end[6000...]))
    }
}

/// Sound files read by libav: every PCM size, float, more channels, other containers.
@Suite struct SoundFileTests {
    @Test func sixteenBitMono() throws {
        let sound = try read(wav(data: le16(1) + le16(0xFFFF) + le16(0x8000) + le16(0x7FFF)))
        #expect(sound == SoundClip(sampleRate: 48000, channels: 1, codec: "pcm_s16le", samples: [1, -1, -32768, 32767]))
        #expect(sound.peak == 32768)
    }

    @Test func eightBitStereoIsUnsigned() throws {
        let sound = try read(wav(fmt(channels: 2, rate: 8000, bits: 8), data: [0, 128, 255, 129]))
        #expect(sound.sampleRate == 8000 && sound.channels == 2 && sound.frameCount == 2)
        #expect(sound.samples == [-32768, 0, 32512, 256])
    }

    @Test func twentyFourAndThirtyTwoBitKeepTheHighBits() throws {
        let s24 = try read(wav(fmt(bits: 24), data: [0xFF, 0x34, 0x12, 0x00, 0x00, 0x80]))
        #expect(s24.samples == [0x1234, -32768] && s24.codec == "pcm_s24le")
        let s32 = try read(wav(fmt(channels: 2, rate: 44100, bits: 32), data: [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0xFE, 0xFF]))
        #expect(s32.samples == [32767, -2])
    }

    @Test func extensiblePCMAndFloat() throws {
        let guid: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let extensible = fmt(code: 0xFFFE, channels: 2, extra: le16(22) + le16(16) + le32(3) + guid)
        #expect(try read(wav(extensible, data: le16(5) + le16(6))).samples == [5, 6])
        // IEEE float, 0.5 and -0.25: half and a quarter of full scale.
        let float = try read(wav(fmt(code: 3, bits: 32), data: le32(0x3F00_0000) + le32(0xBE80_0000)))
        #expect(float.samples == [16384, -8192] && float.codec == "pcm_f32le")
    }

    @Test func moreThanTwoChannelsAreMixedDownToStereo() throws {
        let frames = (0..<480).flatMap { _ in (0..<6).flatMap { _ in le16(1000) } }
        let sound = try read(wav(fmt(channels: 6), data: frames))
        #expect(sound.channels == 2 && sound.frameCount == 480)
        #expect(sound.samples.allSatisfy { $0 > 0 })
    }

    @Test func unknownChunksAreSkipped() throws {
        let bytes = riff(
            chunk("LIST", Array("INFOISFT".utf8) + [1, 2, 3]) + fmt() + chunk("fact", le32(2)) + chunk("data", le16(7) + le16(8))
                + chunk("id3 ", [9]))
        #expect(try read(bytes).samples == [7, 8])
    }

    @Test func whatIsNoSoundIsRefusedWithWhy() throws {
        #expect(error([]) != nil)
        #expect(error(Array("not a wav".utf8)) != nil)
        #expect(error(wav(data: [])) == "the sound is empty")
        #expect(error(Array(wav().prefix(20))) != nil)
        #expect(error(wav(fmt(channels: 0, blockAlign: 2))) != nil)
        #expect(error(wav(fmt(rate: 0))) != nil)
    }

    @Test func aiffIsReadBigEndian() throws {
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }
        // 48 kHz as an 80-bit extended float: exponent 16398, mantissa 0xBB80 << 48.
        let rate: [UInt8] = [0x40, 0x0E, 0xBB, 0x80, 0, 0, 0, 0, 0, 0]
        let common = Array("COMM".utf8) + be32(18) + be16(1) + be32(3) + be16(16) + rate
        let data = be16(1) + be16(0xFFFF) + be16(0x7FFF)
        let sound = Array("SSND".utf8) + be32(8 + data.count) + be32(0) + be32(0) + data
        let body = Array("AIFF".utf8) + common + sound
        let clip = try read(Array("FORM".utf8) + be32(body.count) + body, name: "t.aiff")
        #expect(clip.samples == [1, -1, 32767] && clip.sampleRate == 48000 && clip.codec == "pcm_s16be")
    }

    @Test func aPlaylistOrAnotherContainerIsNotDemuxed() throws {
        // An HLS playlist would have libav open the files it names.
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n/etc/passwd\n#EXT-X-ENDLIST\n"
        #expect(error(Array(playlist.utf8), name: "t.m3u8")?.contains("cannot read the sound file") == true)
        // A Sun .au file of 16-bit PCM, which libav plays, is no container a sound may be.
        let au = Array(".snd".utf8) + [0, 0, 0, 24, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0xBB, 0x80, 0, 0, 0, 1] + [0, 1, 0xFF, 0xFF]
        let message = try #require(error(au, name: "t.au"))
        #expect(message.contains("Invalid argument"), "\(message)")
    }

    @Test func theFileAndTheSoundHaveBudgets() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func refusal(_ path: String) -> String? {
            do {
                _ = try SoundFile.read(path: path)
                return nil
            } catch {
                return error.message
            }
        }
        let large = folder.appendingPathComponent("large.wav").path
        #expect(FileManager.default.createFile(atPath: large, contents: Data(wav())))
        let handle = try #require(FileHandle(forWritingAtPath: large))
        try handle.truncate(atOffset: UInt64(SoundSpec.fileLimit + 1))
        try handle.close()
        #expect(refusal(large)?.contains("at most 16 MiB is read") == true, "\(refusal(large) ?? "read")")
        #expect(refusal(folder.path)?.contains("Is a directory") == true, "\(refusal(folder.path) ?? "read")")
        let fifo = folder.appendingPathComponent("fifo.wav").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo)?.contains("only a regular file is read") == true, "\(refusal(fifo) ?? "read")")
        let long = wav(data: (0..<1000).flatMap { _ in le16(7) })
        #expect(try read(long, maximumSamples: 1000).frameCount == 1000)
        do {
            _ = try read(long, maximumSamples: 999)
            Issue.record("a sound of 1000 samples was taken within 999")
        } catch {
            #expect(error.message == "the sound holds more than 999 samples")
        }
    }

    /// Deterministic mutations of a shipped file: every one reads or fails with a SoundFileError.
    @Test func mutatedFilesNeverTrap() throws {
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: soundsFolder + "/shutter.wav")).prefix(120))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<500 {
            var bytes = original
            for _ in 0...(next() % 4) {
                let index = next() % bytes.count
                bytes[index] = [0, 0xFF, 0x7F, 0x80, UInt8(truncatingIfNeeded: next())][next() % 5]
            }
            if next() % 3 == 0 { bytes.removeLast(next() % bytes.count) }
            if let sound = try? read(bytes) {
                #expect(sound.frameCount > 0 && sound.samples.count % sound.channels == 0)
                #expect(sound.channels == 1 || sound.channels == 2)
            }
        }
    }

    /// WAV files of every kind, valid and not quite: each reads, or fails with why.
    @Test func everySampleFileReadsOrFailsCleanly() throws {
        let folder = try #require(Bundle.module.resourceURL).appendingPathComponent("SoundFiles")
        var outcomes = (read: 0, refused: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            do {
                let sound = try SoundFile.read(path: folder.appendingPathComponent(name).path)
                #expect(sound.channels == 1 || sound.channels == 2, "\(name)")
                #expect(sound.frameCount > 0 && sound.samples.count % sound.channels == 0, "\(name)")
                #expect(sound.sampleRate > 0, "\(name)")
                outcomes.read += 1
            } catch {
                #expect(error.file.hasSuffix(name) && !error.message.isEmpty, "\(error)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.read > 0 && outcomes.refused > 0, "\(outcomes)")
    }
}

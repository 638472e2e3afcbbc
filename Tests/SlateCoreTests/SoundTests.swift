import Foundation
import Testing

@testable import SlateCore

/// The repository's `sounds/` folder.
private let soundsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("sounds")

private func shipped(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: soundsFolder.appendingPathComponent(name + ".wav")))
}

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

private func error(_ bytes: [UInt8]) -> String? {
    do {
        _ = try WaveFile.parse(bytes: bytes, file: "t.wav")
        return nil
    } catch {
        return error.description
    }
}

@Suite struct ShippedSoundTests {
    @Test(arguments: [("shutter", 4800), ("begin-video-recording", 12000), ("end-video-recording", 12000)])
    func shippedSound(name: String, frames: Int) throws {
        let sound = try WaveFile.parse(bytes: try shipped(name), file: name + ".wav")
        #expect(sound.sampleRate == 48000)
        #expect(sound.channels == 1)
        #expect(sound.bitsPerSample == 16)
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
        let begin = try WaveFile.parse(bytes: try shipped("begin-video-recording"), file: "b").samples
        let end = try WaveFile.parse(bytes: try shipped("end-video-recording"), file: "e").samples
        #expect(crossings(begin[..<6000]) < crossings(begin[6000...]))
        #expect(crossings(end[..<6000]) > crossings(end[6000...]))
    }
}

@Suite struct WaveFileTests {
    @Test func sixteenBitMono() throws {
        let sound = try WaveFile.parse(bytes: wav(data: le16(1) + le16(0xFFFF) + le16(0x8000) + le16(0x7FFF)), file: "t.wav")
        #expect(sound == WaveFile(sampleRate: 48000, channels: 1, bitsPerSample: 16, samples: [1, -1, -32768, 32767]))
        #expect(sound.peak == 32768)
    }

    @Test func eightBitStereoIsUnsigned() throws {
        let sound = try WaveFile.parse(bytes: wav(fmt(channels: 2, rate: 8000, bits: 8), data: [0, 128, 255, 129]), file: "t")
        #expect(sound.sampleRate == 8000)
        #expect(sound.channels == 2)
        #expect(sound.frameCount == 2)
        #expect(sound.samples == [-32768, 0, 32512, 256])
    }

    @Test func twentyFourAndThirtyTwoBitKeepTheHighBits() throws {
        let s24 = try WaveFile.parse(bytes: wav(fmt(bits: 24), data: [0xFF, 0x34, 0x12, 0x00, 0x00, 0x80]), file: "t")
        #expect(s24.samples == [0x1234, -32768])
        #expect(s24.bitsPerSample == 24)
        let s32 = try WaveFile.parse(
            bytes: wav(fmt(channels: 2, rate: 44100, bits: 32), data: [0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0xFE, 0xFF]), file: "t")
        #expect(s32.samples == [32767, -2])
    }

    @Test func extensiblePCM() throws {
        let guid: [UInt8] = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        let extensible = fmt(code: 0xFFFE, channels: 2, extra: le16(22) + le16(16) + le32(3) + guid)
        let sound = try WaveFile.parse(bytes: wav(extensible, data: le16(5) + le16(6)), file: "t")
        #expect(sound.samples == [5, 6])
        var float = guid
        float[0] = 3
        #expect(
            error(wav(fmt(code: 0xFFFE, extra: le16(22) + le16(16) + le32(4) + float)))
                == "t.wav: error: unsupported format code 3 (IEEE float): Slate plays integer PCM (format code 1) only")
        #expect(
            error(wav(fmt(code: 0xFFFE, extra: le16(22) + le16(16) + le32(4) + [UInt8](repeating: 7, count: 16))))
                == "t.wav: error: unsupported WAVE_FORMAT_EXTENSIBLE subformat: Slate plays integer PCM only")
        #expect(
            error(wav(fmt(code: 0xFFFE)))
                == "t.wav: error: the 'fmt ' chunk at byte 12 is WAVE_FORMAT_EXTENSIBLE but too short for its extension")
    }

    @Test func unknownChunksAreSkippedAndPaddingHonoured() throws {
        let bytes = riff(
            chunk("LIST", Array("INFOISFT".utf8) + [1, 2, 3]) + fmt() + chunk("fact", le32(2)) + chunk("data", le16(7) + le16(8))
                + chunk("id3 ", [9]))
        let sound = try WaveFile.parse(bytes: bytes, file: "t")
        #expect(sound.samples == [7, 8])
        // A partial frame at the end of the data is dropped; trailing bytes after the RIFF are ignored.
        let odd = try WaveFile.parse(bytes: wav(data: [1, 0, 2, 0, 3]) + [0xAA, 0xBB], file: "t")
        #expect(odd.samples == [1, 2])
    }

    @Test func malformedHeaders() {
        #expect(error([]) == "t.wav: error: not a WAV file: 0 bytes is too short for a RIFF/WAVE header (12 bytes)")
        #expect(
            error(Array(wav().prefix(11)))
                == "t.wav: error: not a WAV file: 11 bytes is too short for a RIFF/WAVE header (12 bytes)")
        #expect(
            error(Array("OggS".utf8) + [UInt8](repeating: 0, count: 40))
                == "t.wav: error: not a WAV file: expected 'RIFF' at byte 0, found 'OggS'")
        #expect(
            error([0, 1, 2, 0xFF] + [UInt8](repeating: 0, count: 40))
                == "t.wav: error: not a WAV file: expected 'RIFF' at byte 0, found 0x000102ff")
        #expect(
            error(Array("RIFX".utf8) + [UInt8](repeating: 0, count: 40))
                == "t.wav: error: big-endian WAV files (RIFX) are not supported")
        #expect(error(Array("RF64".utf8) + [UInt8](repeating: 0, count: 40)) == "t.wav: error: RF64 WAV files are not supported")
        var avi = wav()
        avi.replaceSubrange(8..<12, with: Array("AVI ".utf8))
        #expect(error(avi) == "t.wav: error: not a WAV file: expected 'WAVE' at byte 8, found 'AVI '")
    }

    @Test func truncatedFiles() {
        let whole = wav()
        // Header complete, chunks cut: the RIFF size no longer fits.
        #expect(
            error(Array(whole.prefix(20))) == "t.wav: error: the RIFF header declares \(whole.count) bytes but the file has 20")
        // Every prefix of a shipped file fails cleanly.
        let shutter = (try? shipped("shutter")) ?? []
        for length in 0..<min(shutter.count, 200) {
            #expect(error(Array(shutter.prefix(length))) != nil)
        }
        // The RIFF size shrunk with the file: the data chunk overruns it.
        let cut = Array(whole.prefix(whole.count - 2))
        #expect(error(riff(Array(cut[12...]))) == "t.wav: error: the 'data' chunk at byte 36 declares 4 bytes but only 2 remain")
        #expect(error(riff(fmt())) == "t.wav: error: no 'data' chunk")
        #expect(error(riff(chunk("data", [0, 0]))) == "t.wav: error: the 'data' chunk at byte 12 comes before the 'fmt ' chunk")
        #expect(error(riff([])) == "t.wav: error: no 'fmt ' chunk")
        #expect(error(riff(chunk("LIST", [1, 2, 3, 4]))) == "t.wav: error: no 'fmt ' chunk")
    }

    @Test func wrongAndHugeSizes() {
        #expect(
            error(riff(fmt() + chunk("data", [0, 0]), size: 2))
                == "t.wav: error: the RIFF header declares a size of 2 bytes, less than its 'WAVE' tag")
        #expect(
            error(riff(fmt() + chunk("data", [0, 0]), size: 0xFFFF_FFFF))
                == "t.wav: error: the RIFF header declares 4294967303 bytes but the file has 46")
        #expect(
            error(riff(fmt() + chunk("data", [0, 0], size: 0xFFFF_FFFF)))
                == "t.wav: error: the 'data' chunk at byte 36 declares 4294967295 bytes but only 2 remain")
        #expect(
            error(riff(chunk("fmt ", [1, 0, 1, 0], size: 0x7FFF_FFF0) + chunk("data", [0, 0])))
                == "t.wav: error: the 'fmt ' chunk at byte 12 declares 2147483632 bytes but only 14 remain")
        #expect(
            error(riff(chunk("LIST", [], size: 100)))
                == "t.wav: error: the 'LIST' chunk at byte 12 declares 100 bytes but only 0 remain")
        #expect(
            error(wav(chunk("fmt ", [1, 0, 1, 0, 0x80, 0xBB, 0, 0])))
                == "t.wav: error: the 'fmt ' chunk at byte 12 is 8 bytes; PCM needs 16")
        #expect(
            error(wav(fmt(blockAlign: 4)))
                == "t.wav: error: the 'fmt ' chunk declares 4-byte frames, but 1 channel of 16 bits take 2")
        #expect(
            error(wav(fmt(channels: 2, blockAlign: 3)))
                == "t.wav: error: the 'fmt ' chunk declares 3-byte frames, but 2 channels of 16 bits take 4")
        #expect(error(wav(data: [])) == "t.wav: error: the 'data' chunk holds no samples")
        #expect(error(wav(data: [1])) == "t.wav: error: the 'data' chunk holds no samples")
        #expect(error(riff(fmt() + fmt() + chunk("data", [0, 0]))) == "t.wav: error: a second 'fmt ' chunk at byte 36")
    }

    @Test func unsupportedFormats() {
        #expect(
            error(wav(fmt(code: 3, bits: 32)))
                == "t.wav: error: unsupported format code 3 (IEEE float): Slate plays integer PCM (format code 1) only")
        #expect(
            error(wav(fmt(code: 0x55)))
                == "t.wav: error: unsupported format code 85 (MPEG layer 3): Slate plays integer PCM (format code 1) only")
        #expect(
            error(wav(fmt(code: 0x1234)))
                == "t.wav: error: unsupported format code 4660: Slate plays integer PCM (format code 1) only")
        #expect(error(wav(fmt(channels: 0, blockAlign: 2))) == "t.wav: error: the 'fmt ' chunk declares zero channels")
        #expect(error(wav(fmt(channels: 6))) == "t.wav: error: 6 channels: Slate plays mono or stereo only")
        #expect(error(wav(fmt(rate: 0))) == "t.wav: error: the 'fmt ' chunk declares a sample rate of 0 Hz")
        #expect(
            error(wav(fmt(rate: 0xFFFF_FFFF & 0x7FFF_FFFF)))
                == "t.wav: error: unsupported sample rate of 2147483647 Hz (at most 768000)")
        #expect(
            error(wav(fmt(bits: 12, blockAlign: 2)))
                == "t.wav: error: unsupported sample size of 12 bits: Slate plays 8, 16, 24 or 32-bit PCM")
        #expect(
            error(wav(fmt(bits: 0, blockAlign: 0)))
                == "t.wav: error: unsupported sample size of 0 bits: Slate plays 8, 16, 24 or 32-bit PCM")
    }

    /// Deterministic mutations of a shipped file: every one parses or fails with a WaveError.
    @Test func mutatedFilesNeverTrap() throws {
        let original = Array(try shipped("shutter").prefix(120))
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        for _ in 0..<5000 {
            var bytes = original
            for _ in 0...(next() % 4) {
                let index = next() % bytes.count
                bytes[index] = [0, 0xFF, 0x7F, 0x80, UInt8(truncatingIfNeeded: next())][next() % 5]
            }
            if next() % 3 == 0 { bytes.removeLast(next() % bytes.count) }
            if let sound = try? WaveFile.parse(bytes: bytes, file: "m") {
                #expect(sound.frameCount > 0 && sound.samples.count % sound.channels == 0)
            }
        }
    }
}

@Suite struct SoundLibraryTests {
    func spec(_ files: [String: String], device: String = "default") -> SoundSpec {
        var spec = SoundSpec()
        spec.files = files
        spec.device = device
        return spec
    }

    @Test func builtInSoundsComeFromTheInstalledFolder() throws {
        let library = SoundLibrary(builtInFolder: "/usr/share/slate/sounds")
        #expect(try library.path(of: "shutter") == "/usr/share/slate/sounds/shutter.wav")
        #expect(try library.path(of: "begin-video-recording") == "/usr/share/slate/sounds/begin-video-recording.wav")
        #expect(try SoundLibrary(builtInFolder: "sounds/").path(of: "end-video-recording") == "sounds/end-video-recording.wav")
    }

    @Test func filesOverrideBuiltInsAndAddSounds() throws {
        let library = SoundLibrary(
            spec: spec(["shutter": "clicks/soft.wav", "trumpet": "/opt/sounds/trumpet.wav"]), builtInFolder: "/b",
            profileFolder: "/etc/slate")
        #expect(try library.path(of: "shutter") == "/etc/slate/clicks/soft.wav")
        #expect(try library.path(of: "trumpet") == "/opt/sounds/trumpet.wav")
        #expect(try library.path(of: "end-video-recording") == "/b/end-video-recording.wav")
        // Without a profile folder, relative files are relative to the working directory.
        #expect(try SoundLibrary(spec: spec(["shutter": "soft.wav"]), builtInFolder: nil).path(of: "shutter") == "soft.wav")
    }

    @Test func unknownNamesAndAMissingFolderAreErrors() {
        let library = SoundLibrary(spec: spec(["trumpet": "t.wav"]), builtInFolder: nil)
        #expect(
            throws: SoundLookupError(
                sound: "kazoo",
                message:
                    "unknown sound 'kazoo' (built in: shutter, begin-video-recording or end-video-recording; others need an entry in sounds.files)"
            )
        ) { try library.path(of: "kazoo") }
        #expect(
            throws: SoundLookupError(
                sound: "shutter",
                message: "the folder of built-in sounds was not found; set SLATE_SOUNDS to the folder holding shutter.wav"
            )
        ) { try library.path(of: "shutter") }
        #expect(throws: Never.self) { try library.path(of: "trumpet") }
    }

    @Test func folders() {
        #expect(SoundLibrary.folder(of: "rigs/pedal.yaml") == "rigs")
        #expect(SoundLibrary.folder(of: "/pedal.yaml") == "/")
        #expect(SoundLibrary.folder(of: "pedal.yaml") == nil)
        #expect(SoundLibrary.resolve("a.wav", in: ".") == "a.wav")
        #expect(SoundLibrary.resolve("a.wav", in: "/") == "/a.wav")
    }

    @Test func builtInFolderCandidates() {
        #expect(
            SoundLibrary.builtInFolderCandidates(executable: "/usr/local/bin/slate", override: nil)
                == ["/usr/local/share/slate/sounds"])
        #expect(
            SoundLibrary.builtInFolderCandidates(
                executable: "/src/slate/.build/x86_64-unknown-linux-gnu/debug/slate", override: "/mine")
                == ["/mine", "/src/slate/.build/x86_64-unknown-linux-gnu/share/slate/sounds", "/src/slate/sounds"])
        #expect(SoundLibrary.builtInFolderCandidates(executable: "/slate", override: "") == ["/share/slate/sounds"])
        #expect(SoundLibrary.builtInFolderCandidates(executable: "", override: nil) == [])
    }
}

@Suite struct SoundQueueTests {
    @Test func waitsInOrderUpToItsCapacity() {
        var queue = SoundQueue<String>(capacity: 2)
        #expect(queue.push("a", cut: false).dropped.isEmpty)
        #expect(queue.push("b", cut: false).dropped.isEmpty)
        let third = queue.push("c", cut: false)
        #expect(third.dropped == ["a"])
        #expect(!third.stopsCurrent)
        #expect(queue.pending == ["b", "c"])
        #expect(queue.pop() == "b")
        #expect(queue.pop() == "c")
        #expect(queue.pop() == nil)
        #expect(queue.isEmpty)
    }

    @Test func aCutReplacesWhatWaitsAndStopsWhatPlays() {
        var queue = SoundQueue<String>(capacity: 3)
        _ = queue.push("a", cut: false)
        _ = queue.push("b", cut: false)
        let cut = queue.push("c", cut: true)
        #expect(cut.dropped == ["a", "b"])
        #expect(cut.stopsCurrent)
        #expect(queue.pending == ["c"])
        #expect(queue.removeAll() == ["c"])
        #expect(queue.isEmpty)
    }

    @Test func capacityIsAtLeastOne() {
        var queue = SoundQueue<Int>(capacity: 0)
        _ = queue.push(1, cut: false)
        #expect(queue.push(2, cut: false).dropped == [1])
        #expect(queue.pending == [2])
    }
}

/// A sound read from a WAV file: integer PCM, converted to interleaved 16-bit samples.
public struct WaveFile: Hashable, Sendable {
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public var channels: Int
    /// The sample size the file itself uses: 8, 16, 24 or 32 bits.
    public var bitsPerSample: Int
    /// Interleaved samples (`channels` per frame), as 16-bit values.
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int, bitsPerSample: Int = 16, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.samples = samples
    }

    /// Samples per channel.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// How long the sound plays.
    public var duration: Duration {
        sampleRate > 0 ? .microseconds(Int64(frameCount) * 1_000_000 / Int64(sampleRate)) : .zero
    }

    /// The largest sample magnitude (32768 for a sample of -32768).
    public var peak: Int { samples.reduce(0) { max($0, abs(Int($1))) } }

    /// The most samples a file may decode to: 10 minutes of 48 kHz stereo.
    /// Longer files are refused rather than held in memory.
    public static let maximumSamples = 10 * 60 * 48_000 * 2

    /// Parses a RIFF/WAVE file of integer PCM (format 1, or WAVE_FORMAT_EXTENSIBLE
    /// with the PCM subformat): 8, 16, 24 or 32 bits, mono or stereo, any rate.
    ///
    /// Chunks other than `fmt ` and `data` are skipped, and so is anything after
    /// the `data` chunk. `file` names the input in error messages. Malformed input
    /// of any kind is an error, never a crash.
    public static func parse(bytes: [UInt8], file: String) throws(WaveError) -> WaveFile {
        try WaveParser(bytes: bytes, file: file).parse()
    }
}

/// A WAV file that cannot be played, and why.
public struct WaveError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: error: MESSAGE`.
    public var description: String { "\(file): error: \(message)" }
}

private struct WaveParser {
    let bytes: [UInt8]
    let file: String

    struct Format {
        var channels: Int
        var sampleRate: Int
        var bitsPerSample: Int
        var blockAlign: Int
    }

    func fail(_ message: String) -> WaveError { WaveError(file: file, message: message) }

    func uint16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    func uint32(_ offset: Int) -> Int { uint16(offset) | uint16(offset + 2) << 16 }

    /// A four-character code as text: `'fmt '`, or its bytes in hex when not printable ASCII.
    func fourCC(_ offset: Int) -> String {
        let code = bytes[offset..<offset + 4]
        if code.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "'" + String(decoding: code, as: UTF8.self) + "'"
        }
        return "0x" + code.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func matches(_ offset: Int, _ code: String) -> Bool { bytes[offset..<offset + 4].elementsEqual(code.utf8) }

    func parse() throws(WaveError) -> WaveFile {
        guard bytes.count >= 12 else {
            throw fail("not a WAV file: \(bytes.count) bytes is too short for a RIFF/WAVE header (12 bytes)")
        }
        guard matches(0, "RIFF") else {
            if matches(0, "RIFX") { throw fail("big-endian WAV files (RIFX) are not supported") }
            if matches(0, "RF64") { throw fail("RF64 WAV files are not supported") }
            throw fail("not a WAV file: expected 'RIFF' at byte 0, found \(fourCC(0))")
        }
        guard matches(8, "WAVE") else { throw fail("not a WAV file: expected 'WAVE' at byte 8, found \(fourCC(8))") }
        let declared = uint32(4)
        guard declared >= 4 else { throw fail("the RIFF header declares a size of \(declared) bytes, less than its 'WAVE' tag") }
        guard declared <= bytes.count - 8 else {
            throw fail("the RIFF header declares \(declared + 8) bytes but the file has \(bytes.count)")
        }
        let end = declared + 8

        var format: Format?
        var offset = 12
        while offset + 8 <= end {
            let size = uint32(offset + 4)
            let body = offset + 8
            guard size <= end - body else {
                throw fail("the \(fourCC(offset)) chunk at byte \(offset) declares \(size) bytes but only \(end - body) remain")
            }
            if matches(offset, "fmt ") {
                guard format == nil else { throw fail("a second 'fmt ' chunk at byte \(offset)") }
                format = try parseFormat(at: body, size: size, chunk: offset)
            } else if matches(offset, "data") {
                guard let format else { throw fail("the 'data' chunk at byte \(offset) comes before the 'fmt ' chunk") }
                return try decode(body, size: size, format: format)
            }
            // Chunks are padded to an even size; a missing pad byte at the very end is tolerated.
            offset = body + size + (size & 1)
        }
        throw fail(format == nil ? "no 'fmt ' chunk" : "no 'data' chunk")
    }

    private func parseFormat(at body: Int, size: Int, chunk: Int) throws(WaveError) -> Format {
        guard size >= 16 else { throw fail("the 'fmt ' chunk at byte \(chunk) is \(size) bytes; PCM needs 16") }
        var code = uint16(body)
        let channels = uint16(body + 2)
        let sampleRate = uint32(body + 4)
        let blockAlign = uint16(body + 12)
        let bits = uint16(body + 14)
        if code == 0xFFFE {
            guard size >= 40, uint16(body + 16) >= 22 else {
                throw fail("the 'fmt ' chunk at byte \(chunk) is WAVE_FORMAT_EXTENSIBLE but too short for its extension")
            }
            let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
            guard bytes[(body + 26)..<(body + 40)].elementsEqual(guidTail) else {
                throw fail("unsupported WAVE_FORMAT_EXTENSIBLE subformat: Slate plays integer PCM only")
            }
            code = uint16(body + 24)
        }
        guard code == 1 else {
            let names = [
                2: "Microsoft ADPCM", 3: "IEEE float", 6: "A-law", 7: "µ-law", 0x11: "IMA ADPCM", 0x55: "MPEG layer 3",
            ]
            let name = names[code].map { " (\($0))" } ?? ""
            throw fail("unsupported format code \(code)\(name): Slate plays integer PCM (format code 1) only")
        }
        guard channels > 0 else { throw fail("the 'fmt ' chunk declares zero channels") }
        guard channels <= 2 else { throw fail("\(channels) channels: Slate plays mono or stereo only") }
        guard sampleRate > 0 else { throw fail("the 'fmt ' chunk declares a sample rate of 0 Hz") }
        guard sampleRate <= 768_000 else { throw fail("unsupported sample rate of \(sampleRate) Hz (at most 768000)") }
        guard [8, 16, 24, 32].contains(bits) else {
            throw fail("unsupported sample size of \(bits) bits: Slate plays 8, 16, 24 or 32-bit PCM")
        }
        guard blockAlign == channels * bits / 8 else {
            throw fail(
                "the 'fmt ' chunk declares \(blockAlign)-byte frames, but \(channels) channel\(channels == 1 ? "" : "s") of \(bits) bits take \(channels * bits / 8)"
            )
        }
        return Format(channels: channels, sampleRate: sampleRate, bitsPerSample: bits, blockAlign: blockAlign)
    }

    /// Converts whole frames to 16 bits; a partial frame at the end is dropped.
    private func decode(_ body: Int, size: Int, format: Format) throws(WaveError) -> WaveFile {
        let frames = size / format.blockAlign
        guard frames > 0 else { throw fail("the 'data' chunk holds no samples") }
        let count = frames * format.channels
        guard count <= WaveFile.maximumSamples else {
            throw fail("the sound is too long: \(count) samples, at most \(WaveFile.maximumSamples)")
        }
        let width = format.bitsPerSample / 8
        var samples = [Int16](repeating: 0, count: count)
        samples.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                var p = body + width - 2  // the two most significant bytes of each sample
                switch width {
                case 1:
                    for i in 0..<count { out[i] = Int16(Int(input[body + i]) - 128) << 8 }
                default:
                    for i in 0..<count {
                        out[i] = Int16(bitPattern: UInt16(input[p]) | UInt16(input[p + 1]) << 8)
                        p += width
                    }
                }
            }
        }
        return WaveFile(
            sampleRate: format.sampleRate, channels: format.channels, bitsPerSample: format.bitsPerSample, samples: samples)
    }
}

import Foundation
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import Testing

/// Takes with sound: the sound encoder, the second stream of a take file, and
/// the sound read back, to the frame.
@Suite struct SoundTakeTests {
    static let format = AudioFormat(rate: 48000, channels: 1)

    /// `frames` frames of silence with a 1 kHz burst of 10 ms starting at frame `burst`.
    static func burst(at burst: Int, frames: Int, format: AudioFormat = format) -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        for frame in burst..<min(frames, burst + format.rate / 100) {
            let value = Int16(16000 * sin(2 * Double.pi * 1000 * Double(frame - burst) / Double(format.rate)))
            for channel in 0..<format.channels { samples[frame * format.channels + channel] = value }
        }
        return samples
    }

    /// The first frame louder than a quarter of full scale, as microseconds of the file's timeline.
    static func onset(in decoded: SoundReader.Decoded) -> Int64? {
        guard let index = decoded.samples.firstIndex(where: { abs(Int($0)) > 8000 }) else { return nil }
        return decoded.start + Int64(index / decoded.format.channels) * 1_000_000 / Int64(decoded.format.rate)
    }

    /// Records `seconds` of the test pattern at 30 fps with `sound` beside it,
    /// the sound's packets written before each frame's, as the take pipeline does.
    static func record(
        to path: String, seconds: Int, sound: [Int16], codec: AudioEncoder.Codec = .aac, finish: Bool = true
    ) throws -> (video: Int, sound: Int) {
        let video = try VideoEncoder(codecs: ["h264"], width: 160, height: 96, fps: 30)
        let audio = try AudioEncoder(codec: codec, format: format)
        let (folderPath, name) = Folder.split(path)
        let folder = try Folder(folderPath)
        let writer = try TakeWriter(
            fd: try folder.create(name, mode: 0o644), named: name, in: folder, parameters: video.parameters,
            sound: audio.parameters)
        let pattern = TestPattern(width: 160, height: 96)
        let perFrame = format.rate / 30
        for index in 0..<(seconds * 30) {
            let piece = Array(sound[(index * perFrame)..<((index + 1) * perFrame)])
            for packet in try audio.encode(piece) { try writer.writeSound(packet) }
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 1_000_000 / 30))
            for packet in try video.encode(frame, pts: Int64(index)) { try writer.write(packet) }
        }
        if finish {
            for packet in try audio.flush() { try writer.writeSound(packet) }
            for packet in video.flush() { try writer.write(packet) }
            try writer.finish()
        }
        return (writer.packetCount, writer.soundPacketCount)
    }

    @Test(arguments: [AudioEncoder.Codec.aac, .opus, .pcm])
    func aBurstOneSecondInPlaysOneSecondIn(codec: AudioEncoder.Codec) throws {
        let folder = try MediaFiles.folder("sound-burst-\(codec.rawValue)")
        defer { MediaFiles.remove(folder) }
        let path = folder + (codec == .pcm ? "/take.mov" : "/take.mp4")
        _ = try Self.record(to: path, seconds: 3, sound: Self.burst(at: 48000, frames: 3 * 48000), codec: codec)
        let reader = try #require(try SoundReader.open(path: path))
        #expect(reader.parameters.codec == codec.rawValue)
        #expect(reader.parameters.format == Self.format)
        let decoded = try reader.decodeAll()
        let onset = try #require(Self.onset(in: decoded))
        #expect(abs(onset - 1_000_000) <= 1000, "the burst plays at \(onset) µs")
        // Every frame fed is there: 3 s of sound beside 3 s of picture.
        let end = decoded.start + Int64(decoded.frames) * 1_000_000 / 48000
        #expect(abs(decoded.start) <= 1000 && abs(end - 3_000_000) <= 21_334, "sound from \(decoded.start) to \(end) µs")
        let info = try MediaProbe.probe(path: path)
        #expect(info.frameCount == 90)
        let sound = try #require(info.sound)
        #expect(sound.codec == codec.rawValue && sound.format == Self.format)
        #expect(abs(sound.durationMicroseconds - 3_000_000) <= 21_334, "\(sound.durationMicroseconds) µs of sound")
    }

    @Test func aKilledTakeKeepsItsSoundToItsLastFragment() throws {
        let folder = try MediaFiles.folder("sound-killed")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        // No trailer: what a kill leaves, the fragments flushed at each keyframe.
        _ = try Self.record(to: path, seconds: 4, sound: Self.burst(at: 60000, frames: 4 * 48000), finish: false)
        let info = try MediaProbe.probe(path: path)
        let decoded = try #require(try SoundReader.open(path: path)).decodeAll()
        let soundEnd = decoded.start + Int64(decoded.frames) * 1_000_000 / 48000
        #expect(info.frameCount >= 90)
        #expect(
            abs(soundEnd - info.durationMicroseconds) <= 1_000_000 / 30 + 21_334,
            "the sound ends at \(soundEnd) µs, the picture at \(info.durationMicroseconds) µs")
        #expect(Self.onset(in: decoded).map { abs($0 - 1_250_000) <= 1000 } == true)
    }

    @Test func compensationAddsTheFramesAskedWithoutAClick() throws {
        let encoder = try AudioEncoder(codec: .aac, format: Self.format)
        try encoder.compensate(delta: 96, distance: 48000)
        var packets: [EncodedPacket] = []
        let second = (0..<48000).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 48000)) }
        packets += try encoder.encode(second)
        packets += try encoder.flush()
        #expect(encoder.framesIn == 48000)
        #expect(abs(encoder.framesOut - 48096) <= 2, "\(encoder.framesOut) frames out")
        let total = packets.reduce(Int64(0)) { $0 + $1.duration }
        #expect(abs(total - encoder.framesOut - Int64(encoder.parameters.initialPadding)) <= 1024)
    }
}

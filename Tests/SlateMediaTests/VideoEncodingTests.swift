import Foundation
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import SystemPackage
import Testing

/// The encoder, the take writer and the probe, on small frames.
@Suite struct VideoEncodingTests {
    static let hasLibx265 = (try? VideoEncoder(codecs: ["libx265"], width: 64, height: 64, fps: 30)) != nil

    /// Encodes `count` test-pattern frames into a take file and returns the packets written.
    static func record(
        _ codecs: [String], to path: String, count: Int, width: Int = 320, height: Int = 180, fps: FrameRate = 30,
        rotation: Int = 0, finish: Bool = true
    ) throws -> (VideoEncoder, [EncodedPacket]) {
        let encoder = try VideoEncoder(codecs: codecs, width: width, height: height, fps: fps)
        let writer = try TakeWriter(creating: path, parameters: encoder.parameters, rotation: rotation)
        let pattern = TestPattern(width: width, height: height)
        var packets: [EncodedPacket] = []
        for index in 0..<count {
            let frame = pattern.frame(index: index, time: Instant(microseconds: fps.microseconds(toFrame: Int64(index))))
            packets += try encoder.encode(frame, pts: Int64(index))
        }
        packets += encoder.flush()
        for packet in packets { try writer.write(packet) }
        if finish { try writer.finish() }
        return (encoder, packets)
    }

    static func expectTwoSecondTake(_ info: MediaInfo, codec: String, packets: [EncodedPacket]) {
        #expect(info.codec == codec)
        #expect(info.width == 320 && info.height == 180)
        #expect(info.frameCount == 60)
        #expect(abs(info.durationMicroseconds - 2_000_000) <= 33_334, "\(info.durationMicroseconds) µs")
        #expect(info.keyframeCount >= 2)
        #expect(info.longestKeyframeInterval <= 30)
        #expect(info.hasExtradata)
        #expect(info.decodedFrames == 60)
        #expect(info.rotation == 0)
        // No B-frames: decoding order is presentation order, a keyframe at least every second.
        #expect(packets.count == 60)
        #expect(packets.allSatisfy { $0.pts == $0.dts })
        #expect(packets.map(\.pts) == (0..<60).map(Int64.init))
        let keyframes = packets.indices.filter { packets[$0].isKeyframe }
        #expect(keyframes.first == 0)
        #expect(zip(keyframes, keyframes.dropFirst() + [60]).allSatisfy { $1 - $0 <= 30 })
    }

    @Test func h264TakeHasEveryFrameAndKeyframesEverySecond() throws {
        let folder = try MediaFiles.folder("h264")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        let (encoder, packets) = try Self.record(["h264"], to: path, count: 60)
        #expect(encoder.codecName == "libx264")
        #expect(encoder.parameters.codec == "h264")
        #expect(encoder.parameters.timeBase == TimeBase(1, 30))
        #expect(!encoder.parameters.extradata.isEmpty)
        let info = try MediaProbe.probe(path: path, decode: true)
        Self.expectTwoSecondTake(info, codec: "h264", packets: packets)
        #expect(info.tag == "avc1")
        if let (count, seconds) = try MediaFiles.ffprobeCount(path) {
            #expect(count == 60)
            #expect(abs(seconds - 2.0) <= 0.034)
        }
    }

    @Test(.enabled(if: hasLibx265)) func hevcTakeHasEveryFrameAndKeyframesEverySecond() throws {
        let folder = try MediaFiles.folder("hevc")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        let (encoder, packets) = try Self.record(["hevc", "h264"], to: path, count: 60)
        #expect(encoder.codecName == "libx265")
        let info = try MediaProbe.probe(path: path, decode: true)
        Self.expectTwoSecondTake(info, codec: "hevc", packets: packets)
        #expect(info.tag == "hvc1")
    }

    @Test func rotationIsStoredAsADisplayMatrix() throws {
        let folder = try MediaFiles.folder("rotation")
        defer { MediaFiles.remove(folder) }
        for rotation in [90, 180, 270, -90] {
            let path = folder + "/take-\(rotation).mp4"
            _ = try Self.record(["h264"], to: path, count: 3, rotation: rotation)
            #expect(try MediaProbe.probe(path: path).rotation == (rotation + 360) % 360)
        }
        #expect(throws: MediaError.self) {
            try TakeWriter(
                creating: folder + "/bad.mp4",
                parameters: VideoEncoder(codecs: ["h264"], width: 64, height: 64, fps: 30).parameters, rotation: 45)
        }
    }

    @Test func aTakeNeverFinishedIsPlayableToItsLastFrame() throws {
        let folder = try MediaFiles.folder("unfinished")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        _ = try Self.record(["h264"], to: path, count: 45, finish: false)
        let info = try MediaProbe.probe(path: path, decode: true)
        #expect(info.frameCount == 45)
        #expect(info.decodedFrames == 45)
        #expect(abs(info.durationMicroseconds - 1_500_000) <= 33_334)
    }

    @Test func aTruncatedTakeIsReadUpToItsLastCompleteFragment() throws {
        let folder = try MediaFiles.folder("truncated")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        _ = try Self.record(["h264"], to: path, count: 90)
        var bytes = try FileReading.bytes(atPath: path)
        bytes.removeLast(bytes.count / 4)
        let cut = path + ".cut.mp4"
        #expect(FileManager.default.createFile(atPath: cut, contents: Data(bytes)))
        let info = try MediaProbe.probe(path: cut)
        #expect(info.frameCount >= 30 && info.frameCount < 90, "\(info.frameCount) frames")
        #expect(info.durationMicroseconds >= 1_000_000)
    }

    @Test func errorsNameTheOperationTheFileAndLibavsReason() throws {
        let missing = "/nonexistent/folder/take.mp4"
        let parameters = try VideoEncoder(codecs: ["h264"], width: 64, height: 64, fps: 30).parameters
        let folder = try Folder(try MediaFiles.folder("errors"))
        defer { MediaFiles.remove(folder.path) }
        try folder.create("take.mp4", mode: 0o600).close()
        do {
            _ = try TakeWriter(fd: try folder.openForReading("take.mp4"), named: "take.mp4", in: folder, parameters: parameters)
            Issue.record("writing through a read-only descriptor succeeded")
        } catch let error as MediaError {
            #expect(error.description == "\(folder.path)/take.mp4: cannot write the MP4 header: Bad file descriptor")
        }
        do {
            _ = try MediaProbe.probe(path: missing)
            Issue.record("probing a missing file succeeded")
        } catch {
            #expect(error.description == "\(missing): cannot open the file: No such file or directory")
        }
        do {
            _ = try VideoEncoder(codecs: ["kazoo"], width: 64, height: 64, fps: 30)
            Issue.record("an unknown encoder opened")
        } catch {
            #expect(error.description == "kazoo: cannot open a video encoder: kazoo: not in this libavcodec")
        }
    }

    @Test func measureGivesTheEncodersSpeedAndCPUOrWhyItCannot() throws {
        let measured = try VideoEncoder.measure(encoder: "libx264", width: 320, height: 180, fps: 30, frames: 10).get()
        #expect(measured.framesPerSecond > 30 && measured.cpu > 0, "\(measured)")
        guard case .failure(let error) = VideoEncoder.measure(encoder: "kazoo", width: 320, height: 180, fps: 30, frames: 10)
        else {
            Issue.record("kazoo was measured")
            return
        }
        #expect(error.message == "kazoo: not in this libavcodec", "\(error)")
    }
}

@Suite struct JPEGThumbnailTests {
    @Test func aThumbnailIsAJPEGAtMost320Wide() throws {
        let folder = try MediaFiles.folder("thumbnail")
        defer { MediaFiles.remove(folder) }
        for (width, height, expected) in [(640, 360, (320, 180)), (1920, 1080, (320, 180)), (160, 90, (160, 90))] {
            let path = folder + "/\(width).jpg"
            try JPEGThumbnail.write(
                TestPattern(width: width, height: height).frame(index: 1, time: Instant(microseconds: 33_333)), toPath: path)
            let bytes = try FileReading.bytes(atPath: path)
            #expect(Array(bytes.prefix(2)) == [0xFF, 0xD8])
            #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
            let info = try MediaProbe.probe(path: path, decode: true)
            #expect(info.codec == "mjpeg")
            #expect(info.width == expected.0 && info.height == expected.1)
            #expect(info.decodedFrames == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".partial") }.isEmpty)
    }
}

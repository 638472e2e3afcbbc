import Foundation
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateSystem
import SlateTestSupport
import Testing

@testable import SlateMedia

/// A camera's compressed frames are stored as they come with pass-through, and
/// decoded and encoded without it.
@Suite struct PassThroughTests {
    /// Records one take of the frames captured in the second from now.
    func record(_ source: sending FrameSource, passThrough: Bool, proxy: ProxySpec? = nil, sound: Bool = false) throws -> (
        TakeFolder, TakeManifest.Take, String
    ) {
        let folder = try TakeFolder(path: try MediaFiles.folder("passthrough-\(passThrough)-\(UUID().uuidString)"), create: true)
        var spec = AudioSpec()
        spec.device = .testTone
        let recorder = try TakeRecorder(
            source: source, ledger: try TakeLedger(folder: folder), codecs: ["h264"], passThrough: passThrough, proxy: proxy,
            sound: sound ? try SoundRecording(spec) : nil, logger: Logger(label: "test"))
        let start = MonotonicClock.now()
        recorder.start(at: start)
        // A stop before the take opened would cancel it: the stop is sent once it opened.
        var closed: TakeManifest.Take?
        let deadline = MonotonicClock.now() + .seconds(20)
        while closed == nil && MonotonicClock.now() < deadline {
            for event in recorder.takeEvents() {
                if case .opened = event { recorder.stop(at: start + .seconds(1)) }
                if case .closed(let take, _, _, _) = event { closed = take }
                if case .failed(let message) = event { Issue.record("failed: \(message)") }
            }
            if closed == nil { MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20)) }
        }
        recorder.shutdown()
        return (folder, try #require(closed, "the take did not close"), recorder.encoderName)
    }

    @Test func mjpegPassesThroughIntoAMOVWithEveryFrame() throws {
        let (folder, take, encoder) = try record(SyntheticMJPEGSource(width: 320, height: 180, fps: 30), passThrough: true)
        defer { MediaFiles.remove(folder.path) }
        #expect(encoder == "mjpeg pass-through")
        #expect(take.codec == "mjpeg" && take.file.hasSuffix(".mov"))
        let info = try MediaProbe.probe(path: folder.file(take.file), decode: true)
        #expect(info.codec == "mjpeg" && info.width == 320 && info.height == 180)
        // Every frame of the second: 30 at 30 fps, none missing.
        #expect(take.summary.frames == 30 && take.summary.dropped == 0, "\(take)")
        #expect(info.frameCount == take.summary.frames && info.decodedFrames == take.summary.frames)
        #expect(info.keyframeCount == info.frameCount)
        #expect(abs(info.seconds * 30 - Double(take.summary.frames)) < 0.5, "\(info.seconds) s for \(take.summary.frames) frames")
        #expect(try folder.load().takes == [take])
        let thumbnail = try Data(contentsOf: URL(fileURLWithPath: folder.file(try #require(take.thumbnail))))
        #expect(thumbnail.starts(with: [0xFF, 0xD8]))
    }

    @Test func mjpegIsDecodedAndEncodedWithoutPassThrough() throws {
        let (folder, take, encoder) = try record(SyntheticMJPEGSource(width: 320, height: 180, fps: 30), passThrough: false)
        defer { MediaFiles.remove(folder.path) }
        #expect(encoder == "libx264")
        #expect(take.codec == "h264" && take.file.hasSuffix(".mp4"))
        let info = try MediaProbe.probe(path: folder.file(take.file), decode: true)
        #expect(info.codec == "h264" && info.width == 320 && info.height == 180)
        #expect(take.summary.frames == 30 && take.summary.dropped == 0, "\(take)")
        #expect(info.frameCount == take.summary.frames && info.decodedFrames == take.summary.frames)
        #expect(take.thumbnail != nil)
    }

    @Test func h264PassesThroughIntoAnMP4WhoseHeaderIsFoundInTheFrames() throws {
        let camera = try SyntheticH264Source(width: 320, height: 180, fps: 30, keyframeInterval: 10)
        let (folder, take, encoder) = try record(camera, passThrough: true)
        defer { MediaFiles.remove(folder.path) }
        #expect(encoder == "h264 pass-through")
        #expect(take.codec == "h264" && take.file.hasSuffix(".mp4"))
        let info = try MediaProbe.probe(path: folder.file(take.file), decode: true)
        #expect(info.codec == "h264" && info.width == 320 && info.height == 180)
        // The take starts at the camera's first keyframe of the second: at most 9 frames in.
        #expect((21...30).contains(take.summary.frames) && take.summary.dropped == 0, "\(take)")
        #expect(info.frameCount == take.summary.frames && info.decodedFrames == take.summary.frames)
        #expect(info.keyframeCount == (take.summary.frames + 9) / 10)
    }

    /// A passed-through camera's proxy: each frame decoded once, for the
    /// proxy (and the thumbnail), scaled and encoded; a keyframe wherever the
    /// camera's stream has one.
    /// With sound: a QuickTime MJPEG take's proxy is QuickTime too, holding the same PCM sound.
    @Test(arguments: ["mjpeg", "h264"]) func aPassedThroughCameraGetsAProxyOfEveryFrame(codec: String) throws {
        let source: FrameSource =
            codec == "mjpeg"
            ? SyntheticMJPEGSource(width: 640, height: 480, fps: 30)
            : try SyntheticH264Source(width: 640, height: 480, fps: 30, keyframeInterval: 10)
        let (folder, take, _) = try record(source, passThrough: true, proxy: ProxySpec(height: 360), sound: true)
        defer { MediaFiles.remove(folder.path) }
        let path = try #require(take.proxy)
        #expect(path == ProxyNaming.resolve.path(for: take.file) && path.hasSuffix(codec == "mjpeg" ? ".mov" : ".mp4"))
        let original = try MediaProbe.probe(path: folder.file(take.file))
        let proxy = try MediaProbe.probe(path: folder.file(path), decode: true)
        #expect(proxy.codec == "h264" && proxy.width == 480 && proxy.height == 360, "\(proxy)")
        #expect(proxy.frameCount == take.summary.frames && proxy.decodedFrames == proxy.frameCount, "\(proxy)")
        #expect(proxy.sound != nil && proxy.sound?.codec == original.sound?.codec, "\(proxy)")
        #expect(take.thumbnail != nil)
        // H.264's keyframes are the camera's; MJPEG's (every frame) are the take's start and each second's.
        let keyframes = try ProxyTests.keyframes(in: folder.file(path))
        if codec == "mjpeg" {
            #expect(keyframes.count == 2 && keyframes[0] == 0 && keyframes[1] <= 1_000_000, "\(keyframes)")
        } else {
            #expect(keyframes == (try ProxyTests.keyframes(in: folder.file(take.file))), "\(keyframes)")
        }
    }

    @Test func mjpegDecodesToTheFramesItWasMadeFrom() throws {
        let frame = TestPattern(width: 64, height: 48).frame(index: 3, time: Instant(microseconds: 7))
        let jpeg = try JPEGThumbnail.jpeg(frame, width: 64, height: 48, path: "test")
        let decoded = try #require(
            try MJPEGDecoder().decode(CompressedFrame(data: jpeg, time: frame.time, isKeyframe: true)))
        #expect(decoded.width == 64 && decoded.height == 48 && decoded.time == frame.time)
        let error = zip(decoded.y, frame.y).map { abs(Int($0) - Int($1)) }.reduce(0, +) / frame.y.count
        #expect(error < 6, "mean luma error \(error)")
    }
}

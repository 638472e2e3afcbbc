import Foundation
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem
import Testing

/// Takes with sound from the test tone, whose beeps start at each whole second
/// of the monotonic clock: in the take file, each beep must start where that
/// instant falls after the take's first frame, to the millisecond.
@Suite(.serialized) struct TakeSoundTests {
    func folder() throws -> TakeFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("slate-sound-\(UUID().uuidString)").path
        return try TakeFolder(path: path, create: true)
    }

    /// Records one take, pressed `start` after the camera and the sound start,
    /// `length` long, and waits for it to close.
    func record(preroll: Duration = .zero, start: Duration, length: Duration, channels: Int = 1) throws
        -> (folder: TakeFolder, take: TakeManifest.Take, firstFrame: Instant, sound: SoundSummary)
    {
        let folder = try folder()
        var spec = AudioSpec()
        spec.device = .testTone
        spec.format = AudioFormat(rate: 48000, channels: channels)
        let sound = try #require(try SoundRecording(spec))
        let recorder = try TakeRecorder(
            source: TestPatternSource(width: 320, height: 180, fps: 30), ledger: try TakeLedger(folder: folder),
            codecs: ["h264"], preroll: preroll, sound: sound, logger: Logger(label: "test"))
        MonotonicClock.sleep(until: MonotonicClock.now() + start)
        let press = MonotonicClock.now()
        recorder.start(at: press)
        MonotonicClock.sleep(until: press + length)
        recorder.stop(at: MonotonicClock.now())
        var events: [TakeRecorder.Event] = []
        let deadline = MonotonicClock.now() + .seconds(10)
        while !events.contains(where: { if case .closed = $0 { true } else { false } }) && MonotonicClock.now() < deadline {
            recorder.waitForEvents(milliseconds: 100)
            events += recorder.takeEvents()
        }
        recorder.shutdown()
        var opened: Instant?
        var closed: (TakeManifest.Take, SoundSummary?)?
        for event in events {
            switch event {
            case .opened(_, _, let firstFrame): opened = opened ?? firstFrame
            case .closed(let take, _, _, let sound): closed = (take, sound)
            case .failed(let message): Issue.record("failed: \(message)")
            default: break
            }
        }
        let (take, summary) = try #require(closed)
        return (folder, take, try #require(opened), try #require(summary))
    }

    /// The times (µs into the file) where the beeps start.
    func beeps(in decoded: SoundReader.Decoded) -> [Int64] {
        var onsets: [Int64] = []
        var frame = 0
        let channels = decoded.format.channels
        while frame < decoded.frames {
            if abs(Int(decoded.samples[frame * channels])) > 12000 {
                onsets.append(decoded.start + Int64(frame) * 1_000_000 / Int64(decoded.format.rate))
                frame += decoded.format.rate / 2
            } else {
                frame += 1
            }
        }
        return onsets
    }

    /// Where each whole second of the monotonic clock falls in a take that starts at `firstFrame` and lasts `duration`.
    func seconds(after firstFrame: Instant, lasting duration: Duration) -> [Int64] {
        let first = (firstFrame.microseconds / 1_000_000 + 1) * 1_000_000
        return stride(from: first, to: firstFrame.microseconds + duration.microseconds - 20_000, by: 1_000_000)
            .map { $0 - firstFrame.microseconds }
    }

    func expectInSync(_ recorded: (folder: TakeFolder, take: TakeManifest.Take, firstFrame: Instant, sound: SoundSummary))
        throws
    {
        let path = recorded.folder.file(recorded.take.file)
        let decoded = try #require(try SoundReader.open(path: path)).decodeAll()
        let expected = seconds(after: recorded.firstFrame, lasting: recorded.take.summary.duration)
        var found = beeps(in: decoded)
        // A take that starts within a beep (the first 100 ms of a second) opens on that beep's tail; one
        // that ends within 20 ms of a second may or may not hold that second's onset, as `expected` leaves it out.
        let intoSecond = recorded.firstFrame.microseconds % 1_000_000
        if intoSecond < 100_000 { found.removeAll { $0 < 100_000 - intoSecond } }
        found.removeAll { $0 >= recorded.take.summary.duration.microseconds - 20_000 }
        #expect(found.count == expected.count, "beeps at \(found) µs, whole seconds at \(expected) µs")
        for (beep, second) in zip(found, expected) {
            #expect(
                abs(beep - second) <= 1000,
                "a beep at \(beep) µs for the second at \(second) µs; first frame at \(recorded.firstFrame), sound \(recorded.sound)"
            )
        }
        // The sound lasts as long as the picture, to within an audio frame.
        let info = try MediaProbe.probe(path: path)
        let sound = try #require(info.sound)
        #expect(
            abs(sound.durationMicroseconds - info.durationMicroseconds) <= 21_334,
            "sound \(sound.durationMicroseconds) µs, picture \(info.durationMicroseconds) µs")
        #expect(abs(recorded.sound.duration * 1e6 - Double(info.durationMicroseconds)) <= 21_334)
        #expect(recorded.sound.overruns == 0 && recorded.sound.clipped == 0 && recorded.sound.lostAt == nil)
    }

    @Test func aTakesSoundIsOnThePicturesClock() throws {
        let recorded = try record(start: .milliseconds(200), length: .milliseconds(2600))
        defer { try? FileManager.default.removeItem(atPath: recorded.folder.path) }
        try expectInSync(recorded)
    }

    @Test func preRollKeepsTheSameSpanOfSoundAsOfPicture() throws {
        let recorded = try record(preroll: .seconds(1), start: .milliseconds(1800), length: .milliseconds(1500), channels: 2)
        defer { try? FileManager.default.removeItem(atPath: recorded.folder.path) }
        // The take starts about a second before its press, sound included.
        #expect(recorded.take.summary.duration > .milliseconds(2300))
        try expectInSync(recorded)
    }
}

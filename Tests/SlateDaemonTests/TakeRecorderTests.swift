import Foundation
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem
import SlateTestSupport
import Testing

extension TakeRecorder {
    /// A recorder for `folder` with a ledger of its own and no exports.
    convenience init(
        source: sending FrameSource, folder: TakeFolder, codecs: [String], passThrough: Bool = false, proxy: ProxySpec? = nil,
        logger: Logger
    ) throws {
        try self.init(
            source: source, ledger: try TakeLedger(folder: folder), codecs: codecs, passThrough: passThrough, proxy: proxy,
            logger: logger)
    }
}

@Suite struct TakeRecorderTests {
    func folder() throws -> TakeFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("slate-recorder-\(UUID().uuidString)").path
        return try TakeFolder(path: path, create: true)
    }

    func waitFor(_ recorder: TakeRecorder, _ events: inout [TakeRecorder.Event], count: Int) {
        let deadline = MonotonicClock.now() + .seconds(10)
        while events.count < count && MonotonicClock.now() < deadline {
            events += recorder.takeEvents()
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20))
        }
    }

    @Test func takesStartAtThePressAndAreListedPlayableAndDeletable() throws {
        let folder = try folder()
        let source = TestPatternSource(width: 320, height: 180, fps: 30)
        let recorder = try TakeRecorder(source: source, folder: folder, codecs: ["h264"], logger: Logger(label: "test"))
        var events: [TakeRecorder.Event] = []

        let press = MonotonicClock.now() + .milliseconds(300)
        recorder.start(at: press)
        MonotonicClock.sleep(until: press + .milliseconds(1200))
        recorder.stop(at: MonotonicClock.now())
        waitFor(recorder, &events, count: 2)
        recorder.start(at: MonotonicClock.now())
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(500))
        recorder.stop(at: MonotonicClock.now())
        waitFor(recorder, &events, count: 4)
        recorder.deleteLast()
        waitFor(recorder, &events, count: 5)
        recorder.shutdown()
        events += recorder.takeEvents()

        guard events.count == 5, case .opened(let opened, 1, _) = events[0], case .closed(let first, 1, nil, _) = events[1],
            case .opened(_, 2, _) = events[2], case .closed(let second, 2, nil, _) = events[3],
            case .deleted(let deleted, 2) = events[4]
        else {
            Issue.record("events: \(events)")
            return
        }
        #expect(deleted.id == second.id && first.id == "0001" && second.id == "0002")
        #expect(opened.recording && !first.recording)
        let manifest = try folder.load()
        #expect(manifest.takes.filter { $0.trashed == nil } == [first])
        #expect(!FileManager.default.fileExists(atPath: folder.file(second.file)))
        #expect(FileManager.default.fileExists(atPath: folder.file("trash/" + second.file)))

        let info = try MediaProbe.probe(path: folder.file(first.file), decode: true)
        #expect(info.codec == "h264" && info.width == 320 && info.height == 180)
        #expect(info.frameCount == first.summary.frames)
        #expect(abs(Double(first.summary.duration.microseconds) / 1e6 - 1.2) < 0.12, "duration \(first.summary.duration)")
        #expect(abs(info.seconds - Double(first.summary.duration.microseconds) / 1e6) < 0.04)
        #expect(info.decodedFrames == first.summary.frames)
        let thumbnail = try Data(contentsOf: URL(fileURLWithPath: folder.file(try #require(first.thumbnail))))
        #expect(thumbnail.starts(with: [0xFF, 0xD8]))
        #expect(first.codec == "h264")
    }

    /// A click's take.start comes the input's debounce window after the click
    /// (its release waits the window out); waiting for buttons that much
    /// longer, the take still begins with the first frame at or after the click.
    @Test func aTakeAClickStartsAfterItsDebounceWindowBeginsAtTheClick() throws {
        let folder = try folder()
        let recorder = try TakeRecorder(
            source: TestPatternSource(width: 320, height: 180, fps: 30), folder: folder, codecs: ["h264"],
            logger: Logger(label: "test"))
        let window = InputSpec.defaultDebounce
        recorder.awaitButtons(delayedBy: window)
        var events: [TakeRecorder.Event] = []
        recorder.start(at: MonotonicClock.now())
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(300))
        recorder.stop(at: MonotonicClock.now())
        waitFor(recorder, &events, count: 2)
        guard case .opened(_, 1, let grid)? = events.first else {
            Issue.record("events: \(events)")
            return
        }
        // The test pattern's frames are 1/30 s apart from `grid`. A click 2 ms
        // before one: that frame is captured, and without the wait encoded,
        // before the click's start comes.
        let soon = MonotonicClock.now().microseconds + 200_000
        let index = (soon - grid.microseconds) * 30 / 1_000_000 + 1
        let frame = grid.microseconds + index * 1_000_000 / 30
        let click = Instant(microseconds: frame - 2_000)
        MonotonicClock.sleep(until: click + window)
        recorder.start(at: click)
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(300))
        recorder.stop(at: MonotonicClock.now())
        waitFor(recorder, &events, count: 4)
        recorder.shutdown()
        guard events.count == 4, case .opened(_, 2, let first) = events[2] else {
            Issue.record("events: \(events)")
            return
        }
        #expect(
            abs(first.microseconds - frame) <= 1, "the take begins \(first.microseconds - click.microseconds) µs after the click")
    }

    @Test func shutdownClosesATakeInProgress() throws {
        let folder = try folder()
        let recorder = try TakeRecorder(
            source: TestPatternSource(width: 320, height: 180, fps: 30), folder: folder, codecs: ["h264"],
            logger: Logger(label: "test"))
        recorder.start(at: MonotonicClock.now())
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(600))
        recorder.shutdown()
        let takes = try folder.load().takes
        #expect(takes.count == 1 && takes.first?.recording == false)
        let info = try MediaProbe.probe(path: folder.file(try #require(takes.first).file))
        #expect(info.frameCount >= 12 && info.frameCount == takes.first?.summary.frames)
    }

    @Test func aTakeIsDeletedByItsNumberAndOthersKeepTheirFiles() throws {
        let folder = try folder()
        let recorder = try TakeRecorder(
            source: TestPatternSource(width: 320, height: 180, fps: 30), folder: folder, codecs: ["h264"],
            logger: Logger(label: "test"))
        var events: [TakeRecorder.Event] = []
        for count in [2, 4, 6] {
            recorder.start(at: MonotonicClock.now())
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(300))
            recorder.stop(at: MonotonicClock.now())
            waitFor(recorder, &events, count: count)
        }
        let recorded = try folder.load().takes
        recorder.delete(.number(2))
        recorder.delete(.number(3))
        // A second client's stale delete of the take that was second: refused, though a take is second now.
        recorder.delete(.file(recorded[1].file))
        waitFor(recorder, &events, count: 9)
        guard events.count == 9, case .deleted(let deleted, 2) = events[6], case .deleteFailed(let reason) = events[7],
            case .deleteFailed(let stale) = events[8]
        else {
            Issue.record("events: \(events)")
            return
        }
        #expect(recorded.count == 3 && deleted.id == recorded[1].id)
        #expect(reason == "take 3 cannot be deleted: there are 2 takes")
        #expect(stale == "\(recorded[1].file) cannot be deleted: no such take (deleted, or held by an export, meanwhile)")
        #expect(try folder.load().takes.filter { $0.trashed == nil }.map(\.id) == [recorded[0].id, recorded[2].id])
        #expect(!FileManager.default.fileExists(atPath: folder.file(deleted.file)))
        #expect(FileManager.default.fileExists(atPath: folder.file(recorded[2].file)))
        recorder.delete(.file(recorded[2].file))
        waitFor(recorder, &events, count: 10)
        recorder.shutdown()
        guard events.count == 10, case .deleted(let byFile, 2) = events[9] else {
            Issue.record("events: \(events)")
            return
        }
        #expect(byFile.id == recorded[2].id && !FileManager.default.fileExists(atPath: folder.file(recorded[2].file)))
    }

    @Test func theFramingPreviewIsMadeWhileWatchedAtMostFiveTimesASecond() async throws {
        let recorder = try TakeRecorder(
            source: TestPatternSource(width: 960, height: 540, fps: 30), folder: folder(), codecs: ["h264"],
            logger: Logger(label: "test"))
        #expect(!recorder.preview.isWatched)
        var received: [[UInt8]] = []
        let started = MonotonicClock.now()
        do {
            let pictures = recorder.preview.watch()
            #expect(recorder.preview.isWatched)
            for await picture in pictures {
                received.append(picture)
                if received.count == 6 { break }
            }
        }
        let elapsed = MonotonicClock.now() - started
        // The first comes with the next frame, five more at most five a second
        // (a reader held up by a busy machine only takes longer).
        #expect(elapsed >= .milliseconds(950), "6 pictures in \(elapsed)")
        let frame = try #require(
            try MJPEGDecoder().decode(CompressedFrame(data: received[5], time: Instant(microseconds: 0), isKeyframe: true)))
        #expect(frame.width == 640 && frame.height == 360)
        let deadline = MonotonicClock.now() + .seconds(1)
        while recorder.preview.isWatched && MonotonicClock.now() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!recorder.preview.isWatched)
        recorder.shutdown()
    }
}

/// SIGINT in the middle of `slate record` ends the take cleanly (no thread of
/// the recorder may take the signal and kill the process).
@Suite struct RecordCommandSignalTests {
    @Test(.timeLimit(.minutes(1))) func sigintEndsTheTakeCleanly() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("slate-record-int-\(UUID().uuidString)").path
        let (process, out) = try MediaFiles.launchSlate(
            ["record", "--size", "320x180", "--codec", "h264", "--seconds", "30", "--work", work, "--json"])
        let deadline = MonotonicClock.now() + .seconds(20)
        while (try? TakeFolder(path: work, create: false).load().takes.first?.recording) != true
            && MonotonicClock.now() < deadline
        {
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(50))
        }
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(700))
        process.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let take = try #require(try TakeFolder(path: work, create: false).load().takes.first)
        #expect(!take.recording && take.summary.frames >= 15)
        #expect(String(decoding: output, as: UTF8.self).contains("\"frames\":\(take.summary.frames)"))
        #expect(
            try MediaProbe.probe(path: try TakeFolder(path: work, create: false).file(take.file)).frameCount
                == take.summary.frames)
    }
}

import Foundation
import Glibc
import Logging
import SlateCore
import SlateDaemon
import SlateSystem
import SlateTestSupport
import Testing

@testable import SlateMedia

/// A take on a disk that fills up ends cleanly: playable up to what was written,
/// reported with its path, kept in the manifest; saving the manifest on a full
/// disk is reported too. A small tmpfs is the full disk, so this needs root.
@Suite(.serialized) struct DiskFullTests {
    /// A 3 MB tmpfs mounted on a fresh folder for `body`, unmounted afterwards.
    func withSmallDisk(_ body: (String) throws -> Void) throws {
        let path = try MediaFiles.folder("disk-full-\(UUID().uuidString)")
        defer { MediaFiles.remove(path) }
        try #require(mount("tmpfs", path, "tmpfs", 0, "size=3m,mode=0700") == 0, "mount: \(String(cString: strerror(errno)))")
        defer { umount2(path, Int32(MNT_DETACH)) }
        try body(path)
    }

    /// Fills the disk holding `folder` with one file, until a write fails.
    func fill(_ folder: String) {
        let fd = open(folder + "/filler", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(fd) }
        let block = [UInt8](repeating: 0xA5, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) > 0 {}
    }

    func events(_ recorder: TakeRecorder, until done: ([TakeRecorder.Event]) -> Bool) -> [TakeRecorder.Event] {
        var events: [TakeRecorder.Event] = []
        let deadline = MonotonicClock.now() + .seconds(30)
        while !done(events) && MonotonicClock.now() < deadline {
            events += recorder.takeEvents()
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20))
        }
        return events
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"), .timeLimit(.minutes(1)))
    func aTakeEndsPlayableWhenTheDiskIsFull() throws {
        try withSmallDisk { path in
            let folder = try TakeFolder(path: path, create: true)
            let recorder = try TakeRecorder(
                source: SyntheticMJPEGSource(width: 640, height: 360, fps: 30), folder: folder, codecs: ["h264"],
                passThrough: true, logger: Logger(label: "test"))
            defer { recorder.shutdown() }
            recorder.start(at: MonotonicClock.now())
            var events = events(recorder) { $0.contains { if case .closed = $0 { true } else { false } } }

            let closed = events.compactMap { if case .closed(let take, _, let early, _) = $0 { (take, early) } else { nil } }
            let (take, early) = try #require(closed.first)
            let message = try #require(early)
            #expect(message.contains(folder.file(take.file)) && message.contains("the disk is full"), "\(message)")
            #expect(!take.recording && take.summary.frames > 10)
            #expect(try folder.load().takes == [take], "\(events) \((try? folder.load().takes) ?? [])")
            let info = try MediaProbe.probe(path: folder.file(take.file), decode: true)
            #expect(info.frameCount == take.summary.frames && info.decodedFrames == take.summary.frames)

            // With the reserve used up too, saving the manifest fails: reported, and the take stays listed.
            recorder.stop(at: MonotonicClock.now())
            unlink(folder.file(TakeFolder.reserveName))
            fill(path)
            recorder.deleteLast()
            events = self.events(recorder) { !$0.isEmpty }
            guard case .failed(let saving) = events.first else {
                Issue.record("events: \(events)")
                return
            }
            #expect(saving.contains(folder.manifestPath) && saving.contains("No space left"), "\(saving)")
            #expect(try folder.load().takes == [take])
            #expect(FileManager.default.fileExists(atPath: folder.file(take.file)))
        }
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"), .timeLimit(.minutes(1)))
    func aTakeThatCannotStartLeavesNothingBehind() throws {
        try withSmallDisk { path in
            let folder = try TakeFolder(path: path, create: true)
            let recorder = try TakeRecorder(
                source: SyntheticMJPEGSource(width: 320, height: 180, fps: 30), folder: folder, codecs: ["h264"],
                passThrough: true, logger: Logger(label: "test"))
            defer { recorder.shutdown() }
            fill(path)
            recorder.start(at: MonotonicClock.now())
            let events = events(recorder) { !$0.isEmpty }
            guard case .startFailed(let message) = events.first else {
                Issue.record("events: \(events)")
                return
            }
            #expect(message.contains("No space left"), "\(message)")
            let names = try FileManager.default.contentsOfDirectory(atPath: path)
            #expect(!names.contains { $0.hasPrefix("take-") }, "\(names)")
            #expect(try folder.load().takes.isEmpty)
            // Nothing is recording: a stop changes nothing and says nothing.
            recorder.stop(at: MonotonicClock.now())
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(200))
            #expect(recorder.takeEvents().isEmpty)
        }
    }
}

import Foundation
import Glibc
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import Testing

/// A recording killed with SIGKILL keeps everything up to its last fragment.
@Suite struct CrashSafetyTests {
    @Test(.timeLimit(.minutes(1))) func aKilledRecordingIsPlayableToAboutOneSecondBeforeTheKill() throws {
        let folder = try MediaFiles.folder("crash")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        // The first line is printed as the clock starts.
        let (process, _, text) = try MediaFiles.startSlate(
            ["record-pattern", "--seconds", "5", "--size", "320x180", "--codec", "h264", path])
        let started = MonotonicClock.now()
        #expect(text.hasPrefix("recording \(path): libx264"), "\(text)")
        MonotonicClock.sleep(until: started + .milliseconds(3300))
        kill(process.processIdentifier, SIGKILL)
        let elapsed = MonotonicClock.now() - started
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let info = try MediaProbe.probe(path: path, decode: true)
        #expect(info.durationMicroseconds >= elapsed.microseconds - 1_000_000, "\(info.durationMicroseconds) µs of \(elapsed)")
        #expect(info.frameCount >= 60 && info.decodedFrames == info.frameCount)
        if let (count, seconds) = try MediaFiles.ffprobeCount(path, killed: true) {
            #expect(count == info.frameCount)
            #expect(seconds >= Double(elapsed.microseconds) / 1e6 - 1.0)
        }
    }
}

/// SIGINT and SIGTERM end a recording with a finished file.
@Suite struct RecordingSignalTests {
    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aSignalFinishesTheTake(signal: Int32) throws {
        let folder = try MediaFiles.folder("signal-\(signal)")
        defer { MediaFiles.remove(folder) }
        let path = folder + "/take.mp4"
        // 640x360: big enough for the encoder to run threads, which must not take the signal.
        var (process, out, text) = try MediaFiles.startSlate(
            ["record-pattern", "--seconds", "5", "--size", "640x360", "--codec", "h264", path])
        // The signal comes once the first fragment (a keyframe interval) is in the file.
        var written = 0
        let deadline = MonotonicClock.now() + .seconds(20)
        while written == 0 && MonotonicClock.now() < deadline {
            written = (try? MediaProbe.probe(path: path).frameCount) ?? 0
            if written == 0 { MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20)) }
        }
        kill(process.processIdentifier, signal)
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(written > 0, "no fragment was written before the signal: \(text)")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(text)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        let made = try #require(
            text.split(separator: "\n").lazy.compactMap { line -> Int? in
                guard line.hasPrefix("stopped by \(name) after "), line.hasSuffix(" frames") else { return nil }
                return Int(line.dropFirst("stopped by \(name) after ".count).dropLast(" frames".count))
            }.first, "\(text)")

        // Finished: every frame made before the signal is in the file, the ones
        // after its last complete fragment too, each lasting one frame interval.
        let info = try MediaProbe.probe(path: path, decode: true)
        #expect(made > written, "the fragment of frames up to \(written) was written when frame \(written) was made")
        #expect(info.frameCount == made && info.decodedFrames == made, "\(made) frames made: \(info)")
        #expect(
            abs(info.durationMicroseconds - Int64(made) * 1_000_000 / 30) <= 33_334,
            "\(info.durationMicroseconds) µs for \(made) frames")
    }
}

import Foundation
import Glibc
import Testing

import SlateCore
import SlateLinux

/// A recording killed with SIGKILL keeps everything up to its last fragment.
@Suite struct CrashSafetyTests {
    @Test(.timeLimit(.minutes(1))) func aKilledRecordingIsPlayableToAboutOneSecondBeforeTheKill() throws {
        let path = try MediaFiles.folder("crash") + "/take.mp4"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: MediaFiles.slate)
        process.arguments = ["record-pattern", "--seconds", "5", "--size", "320x180", "--codec", "h264", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is printed as the clock starts.
        var text = ""
        while !text.contains("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
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
        if let (count, seconds) = try MediaFiles.ffprobeCount(path) {
            #expect(count == info.frameCount)
            #expect(seconds >= Double(elapsed.microseconds) / 1e6 - 1.0)
        }
    }
}

import Foundation
import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem
import Testing

/// The repository's `sounds/` folder.
private let soundsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("sounds").path

/// A log handler that keeps what is logged, for the tests to read.
private final class LogRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Logger.Level, String)] = []

    func append(_ level: Logger.Level, _ message: String) { lock.withLock { entries.append((level, message)) } }

    func messages(_ level: Logger.Level) -> [String] { lock.withLock { entries.filter { $0.0 == level }.map(\.1) } }

    var logger: Logger {
        Logger(label: "test") { _ in
            var handler = RecordingHandler(record: self)
            handler.logLevel = .trace
            return handler
        }
    }
}

private struct RecordingHandler: LogHandler {
    let record: LogRecord
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { record.append(event.level, event.message.description) }
}

private func temporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-sound-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.path
}

/// ALSA's `null` device (alsa-lib's null plugin) needs no sound card and
/// discards what it is given at once; `hw:99,0` never exists.
@Suite struct SoundPlayerTests {
    let library = SoundLibrary(builtInFolder: soundsFolder)

    @Test func aMissingDeviceIsLoggedOncePerSoundAndNeverFatal() {
        let log = LogRecord()
        let player = SoundPlayer(library: library, device: "hw:99,0", decode: SoundFile.read(path:), logger: log.logger)
        // play only queues the request; the player's thread does the work.
        for _ in 0..<3 {
            player.play("shutter")
            player.waitUntilIdle()
        }
        player.play("begin-video-recording")
        player.play("begin-video-recording")
        player.waitUntilIdle()
        player.stop()
        let failure = "cannot open the device for playback: Invalid argument (alsa-lib: Cannot get card index for 99)"
        #expect(
            log.messages(.error) == [
                "cannot play sound 'shutter' (\(soundsFolder)/shutter.wav) on ALSA device 'hw:99,0': \(failure); further failures of this sound on this device are logged at debug level",
                "cannot play sound 'begin-video-recording' (\(soundsFolder)/begin-video-recording.wav) on ALSA device 'hw:99,0': \(failure); further failures of this sound on this device are logged at debug level",
            ])
        #expect(log.messages(.debug).count == 3)
    }

    @Test func unknownSoundsAndBadFilesAreLoggedOnce() throws {
        let folder = try temporaryFolder()
        let bad = folder + "/bad.wav"
        try Data("not a wav".utf8).write(to: URL(fileURLWithPath: bad))
        var spec = SoundSpec()
        spec.files = ["bad": "bad.wav", "gone": "gone.wav"]
        let log = LogRecord()
        let player = SoundPlayer(
            library: SoundLibrary(spec: spec, builtInFolder: nil, profileFolder: folder), device: "null",
            decode: SoundFile.read(path:),
            logger: log.logger)
        for _ in 0..<2 {
            for name in ["kazoo", "bad", "gone", "shutter"] {
                player.play(name)
                player.waitUntilIdle()
            }
        }
        player.stop()
        #expect(
            log.messages(.error).map {
                $0.replacingOccurrences(of: "; further failures of this sound on this device are logged at debug level", with: "")
            } == [
                "cannot play sound 'kazoo' on ALSA device 'null': unknown sound 'kazoo' (built in: shutter, begin-video-recording or end-video-recording; others need an entry in sounds.files)",
                "cannot play sound 'bad' (\(bad)) on ALSA device 'null': cannot read the sound file (WAV, AIFF, FLAC, Ogg, MP3 or CAF): Invalid data found when processing input",
                "cannot play sound 'gone' (\(folder)/gone.wav) on ALSA device 'null': cannot open: No such file or directory (ENOENT)",
                "cannot play sound 'shutter' on ALSA device 'null': the folder of built-in sounds was not found; set SLATE_SOUNDS to the folder holding shutter.wav",
            ])
        #expect(log.messages(.debug).count == 4)
    }

    @Test func playsOnTheNullDeviceAndKeepsDecodedFiles() throws {
        let folder = try temporaryFolder()
        let file = folder + "/click.wav"
        try FileManager.default.copyItem(atPath: soundsFolder + "/shutter.wav", toPath: file)
        let log = LogRecord()
        let player = SoundPlayer(library: library, device: "null", decode: SoundFile.read(path:), logger: log.logger)
        for name in SoundSpec.builtIn { player.play(name) }
        player.play(file: file)
        player.waitUntilIdle()
        // Decoded once: replacing the file afterwards does not change what plays.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        player.play(file: file)
        player.waitUntilIdle()
        player.stop()
        #expect(log.messages(.error) == [])
        #expect(log.messages(.warning) == [])
    }

    @Test func stopIsCleanAndFinal() {
        let log = LogRecord()
        let player = SoundPlayer(library: library, device: "hw:99,0", decode: SoundFile.read(path:), logger: log.logger)
        player.play("shutter", cut: true)
        player.play("end-video-recording")
        player.stop()
        player.stop()
        // After stop, play does nothing and waiting returns at once.
        player.play("shutter")
        player.waitUntilIdle()
        #expect(log.messages(.error).count <= 1)
    }

    @Test func requestsFromManyThreadsAtOnce() {
        let log = LogRecord()
        let player = SoundPlayer(
            library: library, device: "null", decode: SoundFile.read(path:), logger: log.logger, queueCapacity: 3)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            player.play(SoundSpec.builtIn[index % 3], cut: index % 7 == 0)
        }
        player.waitUntilIdle()
        player.stop()
        #expect(log.messages(.error) == [])
    }

    /// The player's thread holds the player's state, and with it the logger:
    /// the state is freed once the thread's loop has returned.
    @Test func releasingThePlayerEndsItsThread() {
        weak var record: LogRecord?
        var player: SoundPlayer?
        do {
            let log = LogRecord()
            record = log
            player = SoundPlayer(library: library, device: "null", decode: SoundFile.read(path:), logger: log.logger)
        }
        player?.play("shutter")
        player?.play("end-video-recording")
        #expect(record != nil)
        player = nil
        #expect(record == nil, "the player's thread still runs after the player was released")
    }
}

@Suite struct PCMPlaybackTests {
    @Test func errorsNameTheOperationAndTheDevice() {
        let missing = #expect(throws: ALSAError.self) { try PCMPlayback(device: "hw:99,0") }
        #expect(
            missing?.description
                == "ALSA device 'hw:99,0': cannot open the device for playback: Invalid argument (alsa-lib: Cannot get card index for 99)"
        )
        let unknown = #expect(throws: ALSAError.self) { try PCMPlayback(device: "nonsense") }
        #expect(
            unknown?.description
                == "ALSA device 'nonsense': cannot open the device for playback: No such file or directory (alsa-lib: Unknown PCM nonsense)"
        )
    }

    @Test func playsEveryShippedSoundOnTheNullDevice() throws {
        for name in SoundSpec.builtIn {
            let path = soundsFolder + "/" + name + ".wav"
            let sound = try SoundFile.read(path: path)
            try PCMPlayback.play(sound, device: "null")
        }
        let stereo = SoundClip(sampleRate: 44100, channels: 2, samples: [Int16](repeating: 100, count: 44100))
        try PCMPlayback.play(stereo, device: "null")
    }

    @Test func aStopRequestEndsTheWritingEarly() throws {
        let stream = try PCMPlayback(device: "null")
        try stream.configure(sampleRate: 48000, channels: 1)
        var asked = 0
        let finished = try stream.write([Int16](repeating: 0, count: 48000), channels: 1, sampleRate: 48000) {
            asked += 1
            return asked > 2
        }
        #expect(!finished)
        #expect(asked == 3)
    }
}

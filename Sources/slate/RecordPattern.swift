import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate record-pattern`: records the test pattern in real time, as a camera
/// would, to check a machine's encoders and the crash-safe take files.
struct RecordPattern: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-pattern",
        abstract: "Record the test pattern in real time to a crash-safe MP4 take and its JPEG thumbnail.",
        discussion: """
            Frames are made at --fps on the monotonic clock and encoded with the first \
            encoder that opens for the first codec in --codec. OUTPUT is a fragmented MP4 \
            (playable even if the recording is killed); the thumbnail is OUTPUT with a \
            .jpg extension, from the frame at 0.05 s. SIGINT or SIGTERM ends the take \
            cleanly. The last line says whether the encoder kept up with the clock (a frame is late \
            when it is written more than one frame interval after it was due).
            """)

    @OptionGroup var video: VideoOptions

    @Argument(help: "The MP4 file to write.")
    var output: String

    func run() throws {
        try Slate.claimSignals([Signal.interrupt, Signal.terminate])
        let (width, height) = video.dimensions
        let fps = video.fps, seconds = video.seconds
        let (folderPath, name) = Folder.split(output)
        let thumbnail = TakeManifest.thumbnailName(for: name)
        let output = OutputStream()
        func fail(_ error: Error) -> ExitCode {
            OutputStream.writeError("slate record-pattern: \(error)")
            return ExitCode.failure
        }
        let encoder: VideoEncoder
        let writer: TakeWriter
        let folder: Folder
        let loop: EventLoop
        var stoppedBy: Int32?
        do {
            // Signals are blocked before the encoder starts its threads, which
            // inherit the mask: otherwise one of them would take SIGTERM and die.
            loop = try EventLoop()
            try loop.handleSignals([Signal.interrupt, Signal.terminate]) { signal in
                stoppedBy = signal
                loop.stop()
            }
            encoder = try VideoEncoder(
                codecs: video.codecs, width: width, height: height, fps: fps)
            folder = try Folder(folderPath, creating: 0o755)
            writer = try TakeWriter(
                fd: try folder.create(name, mode: 0o666), named: name, in: folder, parameters: encoder.parameters)
        } catch {
            throw fail(error)
        }
        let pattern = TestPattern(width: width, height: height)
        let total = Int((seconds * Double(fps)).rounded(.up))
        let thumbnailIndex = min(total - 1, Int(0.05 * Double(fps)))
        let preset = encoder.preset.map { ", preset \($0)" } ?? ""
        output.writeLine(
            "recording \(self.output): \(encoder.codecName) (\(encoder.parameters.codec)\(preset)), \(width)x\(height) at \(fps) fps"
        )
        output.flush()

        let start = MonotonicClock.now()
        func due(_ index: Int) -> Instant { start + .microseconds(Int64(index) * 1_000_000 / Int64(fps)) }
        var next = 0
        // Lag: how long after its due time each frame was written.
        var maximumLag: Int64 = 0, lastLag: Int64 = 0, lateFrames = 0
        let interval = Int64(1_000_000 / fps)
        var failure: Error?
        try loop.run(
            nextDeadline: { due(next) },
            afterWake: {
                while failure == nil && stoppedBy == nil && next < total && MonotonicClock.now() >= due(next) {
                    let offset = due(next) - start
                    let frame = pattern.frame(index: next, time: Instant(microseconds: offset.microseconds))
                    do {
                        for packet in try encoder.encode(frame, pts: Int64(next)) { try writer.write(packet) }
                        if next == thumbnailIndex {
                            try JPEGThumbnail.write(frame, named: thumbnail, in: folder, mode: 0o666)
                        }
                    } catch {
                        failure = error
                    }
                    lastLag = (MonotonicClock.now() - due(next)).microseconds
                    maximumLag = max(maximumLag, lastLag)
                    if lastLag > interval { lateFrames += 1 }
                    next += 1
                }
                if failure != nil || next >= total { loop.stop() }
            })
        do {
            if let failure { throw failure }
            for packet in encoder.flush() { try writer.write(packet) }
            try writer.finish()
            let info = try MediaProbe.probe(name, in: folder)
            let duration = Instant(microseconds: info.durationMicroseconds).seconds(since: Instant(microseconds: 0), decimals: 3)
            if let stoppedBy {
                output.writeLine("stopped by \(stoppedBy == Signal.interrupt ? "SIGINT" : "SIGTERM") after \(next) frames")
            }
            output.writeLine(
                "wrote \(self.output): \(info.codec) \(info.width)x\(info.height), \(info.frameCount) frames, \(duration) s, \(info.keyframeCount) keyframes"
            )
            if next > thumbnailIndex { output.writeLine("thumbnail \(folder.file(thumbnail))") }
            // An encoder that keeps up may have a slow frame now and then, but catches up.
            let late = "\(lateFrames) of \(next) frames late, at most \(maximumLag / 1000) ms"
            output.writeLine(
                lastLag <= interval
                    ? "encoder \(encoder.codecName) kept up: \(late)"
                    : "encoder \(encoder.codecName) fell behind: \(late), the last \(lastLag / 1000) ms; too slow for \(width)x\(height) at \(fps) fps"
            )
            output.flush()
        } catch {
            output.flush()
            throw fail(error)
        }
    }
}

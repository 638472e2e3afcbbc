import ArgumentParser
import SlateCore
import SlateDaemon
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
        let fps = video.fps
        let output = OutputStream()
        let outcome: PatternRecording.Outcome
        do {
            outcome = try PatternRecording.record(
                to: self.output, width: width, height: height, fps: fps, seconds: video.seconds, codecs: video.codecs
            ) { encoder in
                let preset = encoder.preset.map { ", preset \($0)" } ?? ""
                output.writeLine(
                    "recording \(self.output): \(encoder.codecName) (\(encoder.parameters.codec)\(preset)), \(width)x\(height) at \(fps) fps"
                )
                output.flush()
            }
        } catch {
            output.flush()
            OutputStream.writeError("slate record-pattern: \(error)")
            throw ExitCode.failure
        }
        let info = outcome.file
        let duration = Instant(microseconds: info.durationMicroseconds).seconds(since: Instant(microseconds: 0), decimals: 3)
        if let stoppedBy = outcome.stoppedBy {
            output.writeLine("stopped by \(stoppedBy == Signal.interrupt ? "SIGINT" : "SIGTERM") after \(outcome.frames) frames")
        }
        output.writeLine(
            "wrote \(self.output): \(info.codec) \(info.width)x\(info.height), \(info.frameCount) frames, \(duration) s, \(info.keyframeCount) keyframes"
        )
        if let thumbnail = outcome.thumbnail { output.writeLine("thumbnail \(thumbnail)") }
        // An encoder that keeps up may have a slow frame now and then, but catches up.
        let late = "\(outcome.lateFrames) of \(outcome.frames) frames late, at most \(outcome.maximumLag / 1000) ms"
        output.writeLine(
            outcome.lastLag <= fps.frameLength.microseconds
                ? "encoder \(outcome.encoder) kept up: \(late)"
                : "encoder \(outcome.encoder) fell behind: \(late), the last \(outcome.lastLag / 1000) ms; too slow for \(width)x\(height) at \(fps) fps"
        )
        output.flush()
    }
}

import SlateCore
import SlateMedia
import SlateSystem

/// `slate record-pattern`'s work: the test pattern recorded in real time, as
/// a camera would deliver it, into a crash-safe MP4 take and its thumbnail,
/// measuring whether the encoder keeps up with the clock. SIGINT or SIGTERM
/// ends the take cleanly.
public struct PatternRecording {
    /// What was recorded, and how the encoder kept up.
    public struct Outcome: Sendable {
        /// The encoder's name, such as libx264.
        public var encoder: String
        public var frames: Int
        /// The signal that stopped the recording early.
        public var stoppedBy: Int32?
        public var file: MediaInfo
        /// The thumbnail's path, when the recording reached its frame.
        public var thumbnail: String?
        /// Frames written more than a frame interval after they were due.
        public var lateFrames: Int
        /// The longest and the last wait, in microseconds, between a frame being due and being written.
        public var maximumLag: Int64
        public var lastLag: Int64
    }

    /// Records `seconds` of the pattern at `width`x`height` and `fps` into
    /// `output` with the first of `codecs` that opens; `started` is told the
    /// encoder once it opened.
    public static func record(
        to output: String, width: Int, height: Int, fps: FrameRate, seconds: Double, codecs: [String],
        started: (VideoEncoder) -> Void
    ) throws -> Outcome {
        let (folderPath, name) = Folder.split(output)
        let thumbnail = TakeManifest.thumbnailName(for: name)
        var stoppedBy: Int32?
        // Signals are blocked before the encoder starts its threads, which
        // inherit the mask: otherwise one of them would take SIGTERM and die.
        let loop = try EventLoop()
        try loop.handleSignals([Signal.interrupt, Signal.terminate]) { signal in
            stoppedBy = signal
            loop.stop()
        }
        let encoder = try VideoEncoder(codecs: codecs, width: width, height: height, fps: fps, color: .bt601)
        let folder = try Folder(folderPath, creating: 0o755)
        let writer = try TakeWriter(
            fd: try folder.create(name, mode: 0o666), named: name, in: folder, parameters: encoder.parameters)
        started(encoder)
        let pattern = TestPattern(width: width, height: height)
        let total = Int((seconds * fps.value).rounded(.up))
        let thumbnailIndex = min(total - 1, Int(0.05 * fps.value))
        let start = MonotonicClock.now()
        func due(_ index: Int) -> Instant { start + .microseconds(fps.microseconds(toFrame: Int64(index))) }
        var next = 0
        var maximumLag: Int64 = 0, lastLag: Int64 = 0, lateFrames = 0
        let interval = fps.frameLength.microseconds
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
        if let failure { throw failure }
        for packet in encoder.flush() { try writer.write(packet) }
        try writer.finish()
        return Outcome(
            encoder: encoder.codecName, frames: next, stoppedBy: stoppedBy,
            file: try MediaProbe.probe(name, in: folder), thumbnail: next > thumbnailIndex ? folder.file(thumbnail) : nil,
            lateFrames: lateFrames, maximumLag: maximumLag, lastLag: lastLag)
    }
}

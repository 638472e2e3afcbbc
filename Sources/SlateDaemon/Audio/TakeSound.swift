import SlateCore
import SlateMedia
import SlateSystem

/// The take pipeline's sound, on the pipeline's thread: the blocks the sound
/// capture delivers, timed by a drift estimator over the device's clock, a
/// ring of the latest ones (for pre-roll), and the take in progress's encoder
/// and placement. A take's sound starts at its first picture's capture time,
/// to the frame, and ends at its picture's end.
final class TakeSound {
    /// How a rig's takes record their sound.
    struct Settings: Sendable {
        var device: SoundDevice
        var codec: AudioSpec.Codec
        var bitRate: Int?
        var gainDB: Double
    }

    /// The sound of the take in progress.
    private struct Recording {
        var encoder: AudioEncoder
        var placement: SoundPlacement
        /// Blocks (or what is left of them) not yet placed, with their times:
        /// they wait for the picture to reach them.
        var waiting: [(block: AudioBlock, time: Instant)] = []
        var packets: [EncodedPacket] = []
        var clipped = 0
        var overruns = 0
        var lostAt: Instant?
    }

    let settings: Settings
    /// How long the drift is measured before it is made up as it goes: over
    /// 10 s, jittered timestamps give it to about 15 ppm.
    static let steadySpan = Duration.seconds(10)
    /// How much sound is kept from before now: pre-roll, and the keyframe interval before it.
    var keep: Duration = .seconds(3)
    private var estimator: DriftEstimator
    private var ring: [(block: AudioBlock, time: Instant)] = []
    private var recording: Recording?
    /// Why the device is lost, while it is.
    private(set) var lost: String?
    /// Spans of capture time when a feedback sound played on the capture's
    /// card: silenced in takes, so the beep is not recorded.
    private var muted: [(from: Instant, until: Instant)] = []

    init(settings: Settings) {
        self.settings = settings
        estimator = DriftEstimator(nominalRate: settings.device.format.rate)
    }

    var format: AudioFormat { settings.device.format }

    /// Takes what the capture delivered; returns what to report, if anything.
    func receive(_ delivery: SoundCapture.Delivery, take: Int?) -> String? {
        switch delivery {
        case .block(let block):
            estimator.add(position: block.position, time: block.time)
            let time = estimator.time(ofPosition: block.position) ?? block.time
            ring.append((block, time))
            if let newest = ring.last?.time {
                let horizon = newest + .microseconds(-keep.microseconds)
                if let keepFrom = ring.firstIndex(where: { $0.block.end >= horizon }), keepFrom > 0 { ring.removeFirst(keepFrom) }
            }
            if recording != nil {
                recording?.waiting.append((block, time))
                feed()
            }
            return nil
        case .lost(let reason, let at):
            lost = reason
            estimator.reset()
            guard var recording else { return "the sound was lost: \(reason); takes are recorded without it until it is back" }
            let into = recording.placement.position(of: at) / Double(format.rate)
            if recording.lostAt == nil { recording.lostAt = at }
            self.recording = recording
            return
                "take \(take.map(String.init) ?? "in progress") lost its sound \(Instant.formatSeconds(Int64(into * 1_000_000), decimals: 3)) s in: \(reason); the picture goes on"
        case .back:
            lost = nil
            return nil
        }
    }

    /// Starts a take's sound at `start`, the capture time of its first picture,
    /// from the blocks kept; `pcm` for a QuickTime take (16-bit PCM). Returns the
    /// stream's parameters for the take file.
    func open(at start: Instant, pcm: Bool) throws(MediaError) -> AudioStreamParameters {
        let codec: AudioEncoder.Codec = pcm ? .pcm : settings.codec == .opus ? .opus : .aac
        let encoder = try AudioEncoder(codec: codec, format: format, bitRate: settings.bitRate, gainDB: settings.gainDB)
        var placement = SoundPlacement(format: format, start: start)
        placement.limit(to: start)
        recording = Recording(encoder: encoder, placement: placement, waiting: ring.filter { $0.block.end > start })
        return encoder.parameters
    }

    /// Silences what is captured from `from` to `until` (a feedback sound playing on this card).
    func mute(from: Instant, until: Instant) {
        muted.removeAll { $0.until < from + .microseconds(-keep.microseconds) }
        muted.append((from, until))
    }

    /// The picture is written up to `time`: sound up to there can be placed.
    func advance(to time: Instant) {
        guard recording != nil else { return }
        recording?.placement.limit(to: time)
        feed()
    }

    /// The encoded packets ready to be written, in order.
    func takePackets() -> [EncodedPacket] {
        guard recording != nil else { return [] }
        defer { recording?.packets.removeAll(keepingCapacity: true) }
        return recording?.packets ?? []
    }

    /// Whether the take's sound has reached its end (or cannot: the device is lost).
    var isComplete: Bool {
        guard let recording, let end = recording.placement.end else { return true }
        return lost != nil || output(of: recording.encoder) >= end
    }

    /// The take's picture ends at `end`: no sound goes past it.
    func finish(at end: Instant) { advance(to: end) }

    /// Ends the take's sound: what is missing up to its end is silence, unless
    /// the device is lost (the sound then ends where it was lost); the encoder is drained. Returns the last packets
    /// and the take's sound summary.
    func close() throws(MediaError) -> ([EncodedPacket], SoundSummary)? {
        guard var recording else { return nil }
        self.recording = nil
        if lost == nil, let end = recording.placement.end {
            let missing = end - output(of: recording.encoder)
            if missing > 0 { recording.packets += try recording.encoder.encode(silence(Int(missing))) }
        }
        recording.packets += try recording.encoder.flush()
        let encoder = recording.encoder
        let summary = SoundSummary(
            duration: (Double(encoder.framesOut) / Double(format.rate) * 1000).rounded() / 1000,
            driftPPM: estimator.ppm.map { ($0 * 10).rounded() / 10 },
            correctionPPM: (recording.placement.largestCorrection * 10).rounded() / 10,
            clipped: recording.clipped, overruns: recording.overruns,
            lostAt: recording.lostAt.map { (recording.placement.position(of: $0) / Double(format.rate) * 1000).rounded() / 1000 })
        return (recording.packets, summary)
    }

    /// Drops the take's sound (its file could not be written).
    func abandon() { recording = nil }

    /// Frames gone to the encoder, those the resampler holds included.
    private func output(of encoder: AudioEncoder) -> Int64 { encoder.framesOut + encoder.framesHeld }

    private func silence(_ frames: Int) -> [Int16] { [Int16](repeating: 0, count: frames * format.channels) }

    /// Zeroes the frames of `samples` (the first captured at `time`) that fall in a muted span.
    private func silenceMuted(_ samples: inout [Int16], from time: Instant) {
        let channels = format.channels
        let frames = samples.count / channels
        for span in muted {
            let first = max(0, format.frames(in: span.from - time))
            let last = min(frames, format.frames(in: span.until - time))
            guard first < last else { continue }
            for index in (first * channels)..<(last * channels) { samples[index] = 0 }
        }
    }

    /// Places the waiting blocks in the take in progress, up to its limit; a
    /// block the limit cuts waits with what is left of it.
    private func feed() {
        guard var recording, recording.lostAt == nil || lost == nil else { return }
        self.recording = nil
        defer { self.recording = recording }
        let channels = format.channels
        while let (block, time) = recording.waiting.first {
            let drift = estimator.span >= Self.steadySpan ? estimator.ppm : nil
            let step = recording.placement.place(
                time: time, frames: block.frames, output: output(of: recording.encoder), drift: drift)
            do {
                if let compensation = step.compensation {
                    try recording.encoder.compensate(delta: compensation.delta, distance: compensation.distance)
                }
                if step.silence > 0 { recording.packets += try recording.encoder.encode(silence(step.silence)) }
                if step.count > 0 {
                    var samples = Array(block.samples[(step.skip * channels)..<((step.skip + step.count) * channels)])
                    recording.clipped += AudioLevel(samples: samples, channels: channels).clipped
                    if block.filled > 0 && step.skip == 0 { recording.overruns += 1 }
                    silenceMuted(&samples, from: time + format.duration(ofFrames: step.skip))
                    recording.packets += try recording.encoder.encode(samples)
                }
            } catch {
                recording.lostAt = recording.lostAt ?? time
                recording.waiting.removeAll()
                return
            }
            let used = step.skip + step.count
            guard used < block.frames else {
                recording.waiting.removeFirst()
                continue
            }
            guard used > 0 else { return }
            let rest = AudioBlock(
                format: format, time: block.time + format.duration(ofFrames: used), position: block.position + Int64(used),
                samples: Array(block.samples[(used * channels)...]), filled: max(0, block.filled - used))
            recording.waiting[0] = (rest, time + format.duration(ofFrames: used))
            return
        }
    }
}

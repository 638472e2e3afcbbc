/// What `slate record` shows on a terminal while it records, as ffmpeg does:
/// the time recorded of the time asked for, the take's frames and drops, and
/// the sound's level when sound is recorded.
public struct RecordProgress: Hashable, Sendable {
    /// The time since recording started.
    public var elapsed: Duration
    /// The time asked for (`--seconds`).
    public var length: Duration
    /// The take as recorded so far.
    public var take: TakeSummary
    /// The sound's level over its last 100 ms; nil when no sound is captured.
    public var level: AudioLevel?

    public init(elapsed: Duration, length: Duration, take: TakeSummary, level: AudioLevel?) {
        self.elapsed = elapsed
        self.length = length
        self.take = take
        self.level = level
    }

    /// `recording 1.5 s of 10.0 s  45 frames  0 dropped  L -12.0 dB R -13.5 dB`.
    public var text: String {
        let seconds = { (duration: Duration) in Instant.formatSeconds(duration.microseconds, decimals: 1) }
        var text = "recording \(seconds(elapsed)) s of \(seconds(length)) s  \(take.frames) frames  \(take.dropped) dropped"
        if let level {
            let peaks = level.channels.enumerated().map { index, channel in
                "\(AudioLevel.label(channel: index, of: level.channels.count)) \(AudioLevel.text(decibels: channel.peakDB)) dB"
            }
            text += "  " + peaks.joined(separator: " ")
        }
        return text
    }
}

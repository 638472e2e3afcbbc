/// A sound file decoded for playing (a feedback sound, a `sound` action):
/// interleaved 16-bit samples, mono or stereo, at the file's rate.
public struct SoundClip: Hashable, Sendable {
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public var channels: Int
    /// What the file holds, as libavcodec names it: `pcm_s16le`, `pcm_s24le`, `flac`, `vorbis`.
    public var codec: String
    /// Interleaved samples (`channels` per frame).
    public var samples: [Int16]

    public init(sampleRate: Int, channels: Int, codec: String = "pcm_s16le", samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.codec = codec
        self.samples = samples
    }

    /// Samples per channel.
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// How long the sound plays.
    public var duration: Duration {
        sampleRate > 0 ? .microseconds(Int64(frameCount) * 1_000_000 / Int64(sampleRate)) : .zero
    }

    /// The largest sample magnitude (32768 for a sample of -32768).
    public var peak: Int { samples.reduce(0) { max($0, abs(Int($1))) } }

    /// The most samples a file may decode to: 2 minutes of 48 kHz stereo
    /// (22 MiB). Longer sounds are refused rather than held in memory.
    public static let maximumSamples = 2 * 60 * 48_000 * 2
}

/// A sound file that cannot be played, and why.
public struct SoundFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: error: MESSAGE`.
    public var description: String { "\(file): error: \(message)" }
}

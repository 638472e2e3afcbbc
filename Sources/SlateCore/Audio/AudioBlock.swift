/// The shape of a stream of sound: frames per second and channels per frame.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    /// Frames (one sample per channel) per second, e.g. 48000.
    public var rate: Int
    public var channels: Int

    public init(rate: Int, channels: Int) {
        self.rate = rate
        self.channels = channels
    }

    /// `48000 Hz stereo`, `44100 Hz mono`, `48000 Hz 4 channels`.
    public var description: String {
        "\(rate) Hz " + (channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")
    }

    /// How long `frames` frames last, rounded down to the microsecond.
    public func duration(ofFrames frames: Int) -> Duration {
        .microseconds(rate > 0 ? Int64(frames) * 1_000_000 / Int64(rate) : 0)
    }

    /// How many frames `duration` holds, rounded to the nearest frame.
    public func frames(in duration: Duration) -> Int {
        Int((duration.microseconds * Int64(rate) + (duration.microseconds >= 0 ? 500_000 : -500_000)) / 1_000_000)
    }
}

/// A block of captured sound: interleaved signed 16-bit samples and the
/// `CLOCK_MONOTONIC` time its first frame was captured, the clock V4L2 stamps
/// frames with.
public struct AudioBlock: Sendable, Equatable {
    public var format: AudioFormat
    /// When the first frame was captured.
    public var time: Instant
    /// The frames' position in the capture: frames read since the device was
    /// opened, gaps (overruns) included, so it counts the device's own clock.
    public var position: Int64
    /// `frames × channels` samples, frame after frame.
    public var samples: [Int16]
    /// Frames of silence put in for what an overrun lost (included in `samples`).
    public var filled: Int

    public init(format: AudioFormat, time: Instant, position: Int64, samples: [Int16], filled: Int = 0) {
        self.format = format
        self.time = time
        self.position = position
        self.samples = samples
        self.filled = filled
    }

    public var frames: Int { format.channels > 0 ? samples.count / format.channels : 0 }

    /// When the frame after the last was captured, by the nominal rate.
    public var end: Instant { time + format.duration(ofFrames: frames) }
}

/// One channel's level in a `slate audio --meter --json` line; decibels to the
/// hundredth, silence as `"-inf"`.
public struct ChannelLevelLine: Codable, Hashable, Sendable {
    public var peakDB: Double
    public var rmsDB: Double
    public var clipped: Int

    public init(_ level: ChannelLevel) {
        peakDB = Self.hundredths(level.peakDB)
        rmsDB = Self.hundredths(level.rmsDB)
        clipped = level.clipped
    }

    static func hundredths(_ decibels: Double) -> Double {
        decibels.isFinite ? (decibels * 100).rounded() / 100 : decibels
    }

    enum CodingKeys: String, CodingKey {
        case clipped
        case peakDB = "peak_db"
        case rmsDB = "rms_db"
    }
}

/// `slate audio --meter --json`, every 100 ms: the level of each channel over
/// the last 100 ms, and the clipped samples and overruns since the capture began.
/// `{"channels":[{"clipped":0,"peak_db":-6.02,"rms_db":-9.03}],"clipped":0,
/// "device":"hw:0,1,0","overruns":0,"t":1.2,"time_us":81234567,"type":"level"}`
public struct AudioLevelLine: Codable, Hashable, Sendable {
    public var type = "level"
    public var device: String
    /// Seconds of sound captured (overruns' gaps included) to the end of the last block measured.
    public var t: Double
    /// When that block ended, on CLOCK_MONOTONIC, in microseconds.
    public var timeMicroseconds: Int64
    public var channels: [ChannelLevelLine]
    public var clipped: Int
    public var overruns: Int

    public init(device: String, seconds: Double, end: Instant, recent: AudioLevel, clipped: Int, overruns: Int) {
        self.device = device
        t = seconds
        timeMicroseconds = end.microseconds
        channels = recent.channels.map(ChannelLevelLine.init)
        self.clipped = clipped
        self.overruns = overruns
    }

    enum CodingKeys: String, CodingKey {
        case type, device, t, channels, clipped, overruns
        case timeMicroseconds = "time_us"
    }
}

/// `slate audio --meter DEVICE --blocks`: one block as `PCMCapture.read()`
/// returned it, when it returned (both CLOCK_MONOTONIC, in microseconds), and
/// the frames already captured after it then.
/// `{"filled":0,"frames":480,"overruns":0,"position":4800,"read_us":81244800,"time_us":81234567,"type":"block","waiting":0}`
public struct AudioBlockLine: Codable, Hashable, Sendable {
    public var type = "block"
    public var timeMicroseconds: Int64
    public var position: Int64
    public var frames: Int
    public var filled: Int
    public var readMicroseconds: Int64
    public var waiting: Int
    public var overruns: Int

    public init(_ block: AudioBlock, readAt: Instant, waiting: Int, overruns: Int) {
        timeMicroseconds = block.time.microseconds
        position = block.position
        frames = block.frames
        filled = block.filled
        readMicroseconds = readAt.microseconds
        self.waiting = waiting
        self.overruns = overruns
    }

    enum CodingKeys: String, CodingKey {
        case type, position, frames, filled, waiting, overruns
        case timeMicroseconds = "time_us"
        case readMicroseconds = "read_us"
    }
}

/// The last line of `slate audio --meter --json`: the whole capture's peak and
/// clipped samples per channel, its length, silence filled in and overruns.
public struct AudioSummaryLine: Codable, Hashable, Sendable {
    public var type = "summary"
    public var device: String
    public var rate: Int
    public var frames: Int64
    public var filled: Int64
    public var seconds: Double
    public var channels: [ChannelLevelLine]
    public var clipped: Int
    public var overruns: Int

    public init(device: String, meter: LevelMeter, overruns: Int) {
        self.device = device
        rate = meter.format.rate
        frames = meter.frames
        filled = meter.filled
        seconds = meter.format.rate > 0 ? Double(meter.frames * 1000 / Int64(meter.format.rate)) / 1000 : 0
        channels = meter.total.channels.map(ChannelLevelLine.init)
        clipped = meter.total.clipped
        self.overruns = overruns
    }
}

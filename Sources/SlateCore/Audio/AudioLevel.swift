import RealModule

/// How loud one channel was over some frames: its peak, the sum of its squares
/// (for the RMS) and how many samples were at full scale.
///
/// Decibels are dBFS against 32768: a full-scale square wave is 0 dB peak and
/// 0 dB RMS, a full-scale sine 0 dB peak and -3.01 dB RMS; silence is -∞.
public struct ChannelLevel: Sendable, Hashable {
    /// The largest magnitude, 0...32768.
    public var peak: Int = 0
    public var sumOfSquares: Double = 0
    public var samples: Int = 0
    /// Samples at full scale (-32768 or 32767).
    public var clipped: Int = 0

    public init() {}

    public var peakDB: Double { AudioLevel.decibels(Double(peak) / 32768) }

    public var rmsDB: Double {
        samples > 0 ? AudioLevel.decibels((sumOfSquares / Double(samples)).squareRoot() / 32768) : -.infinity
    }

    /// Adds one sample.
    public mutating func add(_ sample: Int16) {
        let magnitude = Int(sample.magnitude)
        if magnitude > peak { peak = magnitude }
        sumOfSquares += Double(Int(sample) * Int(sample))
        samples += 1
        if sample == .min || sample == .max { clipped += 1 }
    }

    /// The level over both spans.
    public mutating func add(_ other: ChannelLevel) {
        peak = max(peak, other.peak)
        sumOfSquares += other.sumOfSquares
        samples += other.samples
        clipped += other.clipped
    }
}

/// The level of each channel of some interleaved frames, and its words and bars.
public struct AudioLevel: Sendable, Hashable {
    public var channels: [ChannelLevel]

    /// What a bar shows for silence (-∞): its left end.
    public static let floorDB = -90.0

    public init(channels: Int) { self.channels = Array(repeating: ChannelLevel(), count: max(0, channels)) }

    /// The level of interleaved `samples` of `channels` channels (a trailing part frame is left out).
    public init(samples: [Int16], channels: Int) {
        self.init(channels: channels)
        guard channels > 0 else { return }
        let whole = samples.count / channels * channels
        for index in 0..<whole { self.channels[index % channels].add(samples[index]) }
    }

    public init(_ block: AudioBlock) { self.init(samples: block.samples, channels: block.format.channels) }

    /// The level over both spans; channels missing from one count as silent.
    public mutating func add(_ other: AudioLevel) {
        if other.channels.count > channels.count {
            channels += Array(repeating: ChannelLevel(), count: other.channels.count - channels.count)
        }
        for (index, level) in other.channels.enumerated() { channels[index].add(level) }
    }

    public var clipped: Int { channels.reduce(0) { $0 + $1.clipped } }

    /// `20·log10(ratio)`; -∞ for 0.
    public static func decibels(_ ratio: Double) -> Double { ratio > 0 ? 20 * Double.log10(ratio) : -.infinity }

    /// Decibels to a tenth, `-12.3`, `0.0`, `-inf`.
    public static func text(decibels: Double) -> String {
        guard decibels.isFinite else { return decibels < 0 ? "-inf" : "inf" }
        let tenths = Int((decibels * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(tenths.magnitude / 10).\(tenths.magnitude % 10)"
    }

    /// `M` for mono, `L` and `R` for stereo, else the channel's number from 1.
    public static func label(channel: Int, of count: Int) -> String {
        switch count {
        case 1: "M"
        case 2: channel == 0 ? "L" : "R"
        default: "\(channel + 1)"
        }
    }

    /// A terminal line for one channel, its bar `width` cells from `floor` dB to 0 dB:
    /// `L ████████▒▒▒░░░░░░░░░  -12.3 dB peak  -20.1 dB rms`, then `  3 clipped` when
    /// any were. `█` up to the RMS, `▒` on to the peak, `░` the rest.
    public static func bar(label: String, level: ChannelLevel, width: Int, floor: Double = floorDB) -> String {
        let width = max(0, width)
        func cells(_ decibels: Double) -> Int {
            guard decibels.isFinite, floor < 0 else { return decibels > 0 ? width : 0 }
            let fraction = min(1, max(0, (decibels - floor) / -floor))
            return Int((fraction * Double(width)).rounded())
        }
        let rms = cells(level.rmsDB)
        let peak = max(rms, cells(level.peakDB))
        let bar =
            String(repeating: "█", count: rms) + String(repeating: "▒", count: peak - rms)
            + String(repeating: "░", count: width - peak)
        func padded(_ decibels: Double) -> String {
            let text = Self.text(decibels: decibels)
            return String(repeating: " ", count: max(0, 5 - text.count)) + text
        }
        let clipped = level.clipped > 0 ? "  \(level.clipped) clipped" : ""
        return "\(label) \(bar)  \(padded(level.peakDB)) dB peak  \(padded(level.rmsDB)) dB rms\(clipped)"
    }
}

/// Levels accumulated block after block: over the whole capture (a take's peak
/// and clipped samples) and over its last `window` (a live meter).
public struct LevelMeter: Sendable {
    public let format: AudioFormat
    /// How far back `recent` reaches.
    public let window: Duration
    /// Every block added so far.
    public private(set) var total: AudioLevel
    /// Frames added, silence filled in for overruns included.
    public private(set) var frames: Int64 = 0
    /// Frames of silence filled in for overruns (`AudioBlock.filled`).
    public private(set) var filled: Int64 = 0
    /// The latest blocks, newest last, as long as they reach back `window`.
    private var latest: [(frames: Int, level: AudioLevel)] = []

    public init(format: AudioFormat, window: Duration = .milliseconds(100)) {
        self.format = format
        self.window = window
        total = AudioLevel(channels: format.channels)
    }

    public mutating func add(_ block: AudioBlock) {
        let level = AudioLevel(block)
        total.add(level)
        frames += Int64(block.frames)
        filled += Int64(block.filled)
        latest.append((block.frames, level))
        let reach = format.frames(in: window)
        // Drop the oldest while the rest still reach back the whole window.
        while latest.count > 1, latest.dropFirst().reduce(0, { $0 + $1.frames }) >= reach { latest.removeFirst() }
    }

    /// The level over the last `window` (the blocks that cover it, whole).
    public var recent: AudioLevel {
        latest.reduce(into: AudioLevel(channels: format.channels)) { $0.add($1.level) }
    }
}

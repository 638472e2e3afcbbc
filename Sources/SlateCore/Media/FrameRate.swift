/// A frame rate as a fraction: `frames` every `seconds` (30/1, 25/1, 30000/1001), kept
/// exact from the profile to the camera's interval, the encoder's time base and the timecode.
public struct FrameRate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let frames: Int64
    public let seconds: Int64

    /// Reduced: 60/2 is 30/1.
    public init(frames: Int64, per seconds: Int64 = 1) {
        let fraction = Fraction(max(1, frames), max(1, seconds))
        self.frames = fraction.numerator
        self.seconds = fraction.denominator
    }

    /// `fps` frames a second.
    public init(_ fps: Int) { self.init(frames: Int64(fps)) }

    /// The rate of frames `interval` apart (1/30 is 30, 1001/30000 is 29.97); nil for an invalid
    /// interval, or one whose terms libav's 32-bit fractions cannot hold.
    public init?(interval: Fraction) {
        guard interval.numerator > 0, interval.denominator > 0, interval.numerator <= Int32.max,
            interval.denominator <= Int32.max
        else { return nil }
        self.init(frames: interval.denominator, per: interval.numerator)
    }

    /// The rates a profile's `camera.fps` takes: film, PAL and NTSC, and their doubles.
    public static let offered: [FrameRate] = [
        .ntsc(24), FrameRate(24), FrameRate(25), .ntsc(30), FrameRate(30), FrameRate(48), FrameRate(50), .ntsc(60),
        FrameRate(60),
    ]

    /// The NTSC rate just below `fps`: `fps`×1000/1001 (23.976, 29.97, 59.94).
    public static func ntsc(_ fps: Int64) -> FrameRate { FrameRate(frames: fps * 1000, per: 1001) }

    /// One of the offered rates by its name (`25`, `29.97`, `23.976`), or any rate as a
    /// fraction (`30000/1001`, as ffprobe writes it); nil for anything else.
    public init?(_ text: String) {
        if let named = FrameRate.offered.first(where: { $0.description == text }) {
            self = named
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let frames = Int64(parts[0]), frames > 0, frames <= 1_000_000 else { return nil }
        let seconds = parts.count == 2 ? Int64(parts[1]) : 1
        guard let seconds, seconds > 0, seconds <= 1_000_000 else { return nil }
        self.init(frames: frames, per: seconds)
    }

    /// The offered, whole or thousandth rate within 0.01% of this one, else this one: a UVC
    /// camera's 333333×100 ns interval is 30 fps, its 333667 is 29.97 and its 1333333 is 7.5.
    public var standard: FrameRate {
        let exact = Double(frames) / Double(seconds)
        let thousandths = FrameRate(frames: Int64((exact * 1000).rounded()), per: 1000)
        let candidates = FrameRate.offered + [FrameRate(Int(nominal)), thousandths]
        return candidates.first { abs(Double($0.frames) / Double($0.seconds) - exact) <= exact / 10_000 } ?? self
    }

    /// The time between frames, as V4L2 sets it: 1001/30000 at 29.97.
    public var interval: Fraction { Fraction(seconds, frames) }

    /// Frames a second to three decimals (29.97), as sliders and JSON hold it.
    public var value: Double { Double((frames * 1000 + seconds / 2) / seconds) / 1000 }

    /// The whole frames a second timecode counts (30 for 29.97).
    public var nominal: Int64 { (frames + seconds / 2) / seconds }

    /// Whether its timecode drops frame labels to keep up with the clock: the
    /// NTSC rates (29.97 and 59.94, 30000/1001 and 60000/1001).
    public var dropsFrames: Bool { seconds == 1001 && frames % 30000 == 0 }

    /// Microseconds from the first frame to frame `index`, rounded down.
    public func microseconds(toFrame index: Int64) -> Int64 {
        WideMath.scale(index, by: seconds * 1_000_000, over: frames)
    }

    /// The frame at `microseconds` after the first, rounded to the nearest.
    public func frame(at microseconds: Int64) -> Int64 {
        WideMath.scale(microseconds, by: frames, over: seconds * 1_000_000, .nearest)
    }

    /// The frame showing `microseconds` after the first: the last one begun.
    public func frame(showing microseconds: Int64) -> Int64 {
        WideMath.scale(microseconds, by: frames, over: seconds * 1_000_000)
    }

    /// One frame's length, rounded down to the microsecond.
    public var frameLength: Duration { .microseconds(microseconds(toFrame: 1)) }

    /// The rate `fps.toggle` switches to: double this one when that is offered, else half
    /// (60 and 30, 50 and 25, 59.94 and 29.97, 48 and 24); nil when neither is (23.976).
    public var partner: FrameRate? {
        let double = FrameRate(frames: frames * 2, per: seconds)
        if FrameRate.offered.contains(double) { return double }
        let half = FrameRate(frames: frames, per: seconds * 2)
        return FrameRate.offered.contains(half) ? half : nil
    }

    /// `30`, `25`, `29.97`, `23.976`: to three decimals, without trailing zeros.
    public var description: String {
        if seconds == 1 { return "\(frames)" }
        let thousandths = (frames * 1000 + seconds / 2) / seconds
        var text = "\(thousandths / 1000)."
        let fraction = thousandths % 1000
        text += fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    public static func < (a: FrameRate, b: FrameRate) -> Bool { b.interval < a.interval }
}

/// A JSON number: whole rates as integers (`30`), others to three decimals (`29.97`), read
/// back as the offered or whole rate they name.
extension FrameRate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard value >= 1, value <= 1000 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a frame rate is 1 to 1000, not \(value)")
        }
        let thousandths = Int64((value * 1000).rounded())
        self = FrameRate(frames: thousandths, per: 1000).standard
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if seconds == 1 { try container.encode(frames) } else { try container.encode(value) }
    }
}

/// A whole rate written as a number: `fps: 25`.
extension FrameRate: ExpressibleByIntegerLiteral {
    public init(integerLiteral fps: Int) { self.init(fps) }
}

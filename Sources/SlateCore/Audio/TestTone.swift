/// The sound of the `testtone` device: a quiet 440 Hz tone (−24 dBFS) with a
/// 1 kHz beep (−6 dBFS) over the first 100 ms of every second of the clock the
/// frames are stamped with, when the test pattern's time shows `.000`, so
/// a person watching a take hears whether sound and picture are in sync.
public struct TestTone: Sendable {
    public let format: AudioFormat

    public init(format: AudioFormat) { self.format = format }

    /// `frames` frames, interleaved, the first captured at `time`.
    public func samples(at time: Instant, frames: Int) -> [Int16] {
        var samples = [Int16](repeating: 0, count: frames * format.channels)
        let rate = Int64(format.rate)
        // The frame of the clock's second `time` falls in, and where in it.
        let second = time.microseconds >= 0 ? time.microseconds / 1_000_000 : (time.microseconds - 999_999) / 1_000_000
        var frame = ((time.microseconds - second * 1_000_000) * rate) / 1_000_000
        let beep = rate / 10
        for index in 0..<frames {
            if frame >= rate { frame -= rate }
            let t = Double(frame) / Double(rate)
            let value = frame < beep ? 0.5 * Self.sine(1000 * t) : 0.063 * Self.sine(440 * t)
            let sample = Int16(value * 32767)
            for channel in 0..<format.channels { samples[index * format.channels + channel] = sample }
            frame += 1
        }
        return samples
    }

    /// sin(2πx) for x ≥ 0, by a 7th-order polynomial on the quarter wave (within 2·10⁻⁴).
    static func sine(_ cycles: Double) -> Double {
        var x = cycles - Double(Int64(cycles))
        var sign = 1.0
        if x >= 0.5 {
            x -= 0.5
            sign = -1
        }
        if x > 0.25 { x = 0.5 - x }
        let a = 2 * Double.pi * x
        let a2 = a * a
        return sign * a * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42)))
    }
}

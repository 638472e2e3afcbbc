/// SMPTE timecode: hours, minutes, seconds and frames of a day, counted at a
/// frame rate's whole frames a second, with drop-frame labels at 29.97 and
/// 59.94 (`10:07:03;12`: frames 0 and 1, or 0 to 3, are skipped at each minute
/// but every tenth), as cameras and libavformat's timecode tracks write it.
public struct Timecode: Hashable, Sendable, CustomStringConvertible {
    public let rate: FrameRate
    /// Frames since midnight, as the clock counts them (not the labels).
    public let frame: Int64

    public init(frame: Int64, rate: FrameRate) {
        self.rate = rate
        self.frame = frame
    }

    /// The frame showing at `microseconds` after local midnight: the time of
    /// day, so rigs on synchronized clocks carry the same timecode at the same instant.
    public init(microsecondsOfDay microseconds: Int64, rate: FrameRate) {
        let day = Int64(86_400_000_000)
        let time = ((microseconds % day) + day) % day
        // microseconds × frames / (seconds × 10⁶), without overflow for a day at any rate.
        let (whole, rest) = time.quotientAndRemainder(dividingBy: 1_000_000)
        let frames = whole * rate.frames / rate.seconds
        let fraction = (whole * rate.frames % rate.seconds * 1_000_000 + rest * rate.frames) / (rate.seconds * 1_000_000)
        self.init(frame: frames + fraction, rate: rate)
    }

    /// The timecode `text` (`10:07:03:12`, or `10:07:03;12` dropping frames) at `rate`;
    /// nil for text that is not one at that rate.
    public init?(_ text: String, rate: FrameRate) {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == ";" }).map { Int64($0) }
        guard parts.count == 4, text.count == 11, text.contains(";") == rate.dropsFrames,
            let hours = parts[0], let minutes = parts[1], let seconds = parts[2], let frames = parts[3],
            hours < 24, minutes < 60, seconds < 60, frames < rate.nominal
        else { return nil }
        let label = ((hours * 60 + minutes) * 60 + seconds) * rate.nominal + frames
        guard rate.dropsFrames else {
            self.init(frame: label, rate: rate)
            return
        }
        // The labels skipped before it: `drop` at each minute but every tenth.
        let drop = rate.nominal / 15
        let (tens, rest) = label.quotientAndRemainder(dividingBy: rate.nominal * 600)
        self.init(frame: label - drop * 9 * tens - drop * (rest / (rate.nominal * 60)), rate: rate)
    }

    /// The frame's label counted in whole frames: past the drop-frame skips.
    var label: Int64 {
        guard rate.dropsFrames else { return frame }
        let drop = rate.nominal / 15  // 2 at 29.97, 4 at 59.94
        let perTenMinutes = rate.nominal * 600 - drop * 9
        let (tens, rest) = frame.quotientAndRemainder(dividingBy: perTenMinutes)
        let minutes = rest < drop ? 0 : (rest - drop) / (rate.nominal * 60 - drop)
        return frame + drop * 9 * tens + drop * minutes
    }

    /// `HH:MM:SS:FF`, or `HH:MM:SS;FF` when it drops frames; the hours wrap at 24.
    public var description: String {
        let nominal = max(1, rate.nominal)
        let label = self.label
        let frames = label % nominal
        let seconds = label / nominal
        let parts = [seconds / 3600 % 24, seconds / 60 % 60, seconds % 60]
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return parts.map(two).joined(separator: ":") + (rate.dropsFrames ? ";" : ":") + two(frames)
    }
}

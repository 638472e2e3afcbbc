/// Turns what a capture device reads into `AudioBlock`s that keep counting the
/// device's clock across overruns.
///
/// Each read gives samples and the measured time of their first frame. After
/// an overrun the frames lost are measured from the times (the new block's
/// first frame minus where the previous block ended, at the nominal rate,
/// rounded, never negative) and put back as silence at the start of the next
/// block, whose `time` is then the previous block's end: positions go on
/// matching times through the gap.
public struct SoundTimeline: Sendable {
    public let format: AudioFormat
    /// The position of the next block: frames returned so far, silence included.
    public private(set) var position: Int64 = 0
    /// When the last block returned ended, by its measured start and the nominal rate.
    public private(set) var lastEnd: Instant?

    public init(format: AudioFormat) { self.format = format }

    /// The block for `samples` (interleaved, whole frames), whose first frame
    /// was captured at `time`; `afterOverrun` when frames were lost before them.
    public mutating func block(samples: [Int16], time: Instant, afterOverrun: Bool) -> AudioBlock {
        var block = AudioBlock(format: format, time: time, position: position, samples: samples)
        if afterOverrun, let lastEnd {
            let lost = max(0, format.frames(in: time - lastEnd))
            if lost > 0 {
                block.samples = [Int16](repeating: 0, count: lost * format.channels) + samples
                block.filled = lost
                block.time = lastEnd
            }
        }
        position += Int64(block.frames)
        lastEnd = block.end
        return block
    }
}

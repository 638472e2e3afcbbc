/// Places a take's sound on the picture's clock, frame by frame, without I/O:
/// the take's sound starts with the frame captured at its first picture's
/// time, to the frame; it follows the capture times of the sound's blocks (as
/// the drift estimator's line gives them), not a count of frames; small
/// differences are made up by stretching or shrinking the sound a little
/// (the resampler's compensation), large ones (a gap in the capture, a
/// device opened again) by silence or by dropping frames. It never goes past
/// the picture written so far, and ends with the frame captured at the
/// picture's end.
public struct SoundPlacement: Sendable {
    /// What to do with one block.
    public struct Step: Equatable, Sendable {
        /// Frames of silence to encode before the block.
        public var silence = 0
        /// Frames to drop from the block's start.
        public var skip = 0
        /// Frames of the block to encode after those skipped.
        public var count = 0
        /// Frames to add (negative: remove) over the next `distance` frames of output.
        public var compensation: (delta: Int, distance: Int)?

        public static func == (a: Step, b: Step) -> Bool {
            a.silence == b.silence && a.skip == b.skip && a.count == b.count
                && a.compensation?.delta == b.compensation?.delta && a.compensation?.distance == b.compensation?.distance
        }
    }

    public let format: AudioFormat
    /// The take's first picture was captured at `start`: its sound's frame 0.
    public let start: Instant
    /// The most the sound is stretched or shrunk, in parts per million.
    public let maximumCorrection: Double
    /// Differences beyond this are made up at once, with silence or dropped frames.
    public let hardLimit: Duration
    /// Differences within this are left alone (the capture times' own jitter).
    public let tolerance: Duration
    /// The largest correction asked so far, in parts per million (signed).
    public private(set) var largestCorrection = 0.0
    /// Frames of silence put in for gaps (not at the start).
    public private(set) var gapFrames = 0
    /// The output frame no sound goes past: the end of the picture written so
    /// far, then the take's end.
    public private(set) var end: Int64?

    public init(
        format: AudioFormat, start: Instant, maximumCorrection: Double = 2000, hardLimit: Duration = .milliseconds(40),
        tolerance: Duration = .microseconds(250)
    ) {
        self.format = format
        self.start = start
        self.maximumCorrection = maximumCorrection
        self.hardLimit = hardLimit
        self.tolerance = tolerance
    }

    /// The frame of output where something captured at `time` belongs (not rounded).
    public func position(of time: Instant) -> Double {
        Double((time - start).microseconds) * Double(format.rate) / 1_000_000
    }

    /// No frame of sound goes past `time` (the end of the picture so far, or the take's end).
    public mutating func limit(to time: Instant) {
        end = max(0, Int64(position(of: time).rounded()))
    }

    /// What to do with a block of `frames` frames whose first was captured at
    /// `time`, when `output` frames have gone to the encoder so far (those the
    /// resampler holds included). `drift`, the card's measured drift in parts
    /// per million when it is known well, is made up as it goes (the sound
    /// stretched by as much as the card runs slow); the difference left over
    /// the tolerance is made up over the next two seconds.
    public mutating func place(time: Instant, frames: Int, output: Int64, drift: Double? = nil) -> Step {
        var step = Step()
        let error = position(of: time) - Double(output)
        let limit = Double(format.frames(in: hardLimit))
        if output == 0 || abs(error) > limit {
            if error > 0 {
                step.silence = Int(error.rounded())
                if output > 0 { gapFrames += step.silence }
            } else {
                step.skip = min(frames, Int((-error).rounded()))
            }
        } else {
            let distance = 2 * format.rate
            let most = maximumCorrection * Double(distance) / 1_000_000
            let steady = -(drift ?? 0) * Double(distance) / 1_000_000
            let left = abs(error) > Double(format.frames(in: tolerance)) ? error : 0
            let delta = Int(max(-most, min(most, steady + left)).rounded())
            step.compensation = (delta, distance)
            let ppm = Double(delta) * 1_000_000 / Double(distance)
            if abs(ppm) > abs(largestCorrection) { largestCorrection = ppm }
        }
        step.count = frames - step.skip
        if let end {
            let room = max(0, end - output)
            step.silence = Int(min(Int64(step.silence), room))
            step.count = Int(min(Int64(step.count), room - Int64(step.silence)))
        }
        return step
    }
}

import Testing

@testable import SlateCore

/// A repeatable pseudo-random jitter, uniform in ±`amplitude` microseconds.
private struct Jitter {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func next(amplitude: Int64) -> Int64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int64((state >> 33) % UInt64(2 * amplitude + 1)) - amplitude
    }
}

/// A simulated sound card: blocks of 10 ms whose real rate is off by `ppm`,
/// stamped with `jitter` µs of noise, as a driver's timestamps are.
private struct SimulatedCard {
    let format = AudioFormat(rate: 48000, channels: 1)
    let ppm: Double
    let jitter: Int64
    let start = Instant(microseconds: 5_000_000)
    var noise = Jitter()

    /// The true capture time of the frame at `position`.
    func trueTime(_ position: Int64) -> Double {
        Double(start.microseconds) + Double(position) * 1_000_000 / (48000 * (1 + ppm / 1_000_000))
    }

    mutating func stamp(_ position: Int64) -> Instant {
        Instant(microseconds: Int64(trueTime(position).rounded()) + noise.next(amplitude: jitter))
    }
}

@Suite struct DriftEstimatorTests {
    @Test(arguments: [0.0, 200, -160, 1000])
    func theDriftIsMeasuredThroughJitteredTimestamps(ppm: Double) {
        var card = SimulatedCard(ppm: ppm, jitter: 2000)
        var estimator = DriftEstimator(nominalRate: 48000)
        var worst = 0.0
        for block in 0..<(100 * 30) {
            let position = Int64(block) * 480
            estimator.add(position: position, time: card.stamp(position))
            if block >= 300, let time = estimator.time(ofPosition: position) {
                worst = max(worst, abs(Double(time.microseconds) - card.trueTime(position)))
            }
        }
        let measured = try! #require(estimator.ppm)
        #expect(abs(measured - ppm) < 20, "measured \(measured) ppm for \(ppm)")
        // ±2 ms of jitter on every stamp, but the line is within half a millisecond of the truth.
        #expect(worst < 500, "the line was \(worst) µs off")
    }

    @Test func theNominalRateServesUntilTheSpanIsLongEnough() {
        var estimator = DriftEstimator(nominalRate: 48000, minimumSpan: .seconds(2))
        #expect(estimator.time(ofPosition: 0) == nil)
        estimator.add(position: 0, time: Instant(microseconds: 1_000_000))
        estimator.add(position: 480, time: Instant(microseconds: 1_011_000))
        #expect(estimator.ppm == nil)
        // The nominal slope through the points' means: 10 ms per 480 frames.
        #expect(estimator.time(ofPosition: 960) == Instant(microseconds: 1_020_500))
    }

    @Test func aPositionThatGoesBackStartsOver() {
        var estimator = DriftEstimator(nominalRate: 48000)
        for block in 0..<300 { estimator.add(position: Int64(block) * 480, time: Instant(microseconds: Int64(block) * 10_000)) }
        #expect(estimator.ppm != nil)
        estimator.add(position: 0, time: Instant(microseconds: 60_000_000))
        #expect(estimator.ppm == nil)
        #expect(estimator.time(ofPosition: 480) == Instant(microseconds: 60_010_000))
    }
}

@Suite struct SoundPlacementTests {
    let format = AudioFormat(rate: 48000, channels: 2)
    let start = Instant(microseconds: 10_000_000)

    @Test func aTakeStartsAtItsFirstFrameToTheFrame() {
        var placement = SoundPlacement(format: format, start: start)
        // A block captured 4.5 ms before the take's first picture: its first 216 frames are before it.
        let step = placement.place(time: Instant(microseconds: 9_995_500), frames: 480, output: 0)
        #expect(step == SoundPlacement.Step(silence: 0, skip: 216, count: 264, compensation: nil))
    }

    @Test func aBlockWhollyBeforeTheTakeIsDropped() {
        var placement = SoundPlacement(format: format, start: start)
        let step = placement.place(time: Instant(microseconds: 9_900_000), frames: 480, output: 0)
        #expect(step.skip == 480 && step.count == 0 && step.silence == 0)
    }

    @Test func soundThatStartsLateIsPrecededBySilence() {
        var placement = SoundPlacement(format: format, start: start)
        let step = placement.place(time: Instant(microseconds: 10_002_000), frames: 480, output: 0)
        #expect(step == SoundPlacement.Step(silence: 96, skip: 0, count: 480, compensation: nil))
        #expect(placement.gapFrames == 0)
    }

    @Test func aGapIsFilledWithSilenceOfItsLength() {
        var placement = SoundPlacement(format: format, start: start)
        // 1 s of sound went out, then the next block comes 250 ms late (a device opened again).
        let step = placement.place(time: Instant(microseconds: 11_250_000), frames: 480, output: 48000)
        #expect(step.silence == 12000 && step.count == 480)
        #expect(placement.gapFrames == 12000)
    }

    @Test func smallDifferencesAreCorrectedSlowlyAndBounded() {
        var placement = SoundPlacement(format: format, start: start, maximumCorrection: 2000)
        // 30 frames behind: add them over the next two seconds.
        let behind = placement.place(time: Instant(microseconds: 11_000_000), frames: 480, output: 47970)
        #expect(behind.compensation?.delta == 30 && behind.compensation?.distance == 96000)
        // 5 frames is within the timestamps' jitter: left alone.
        let within = placement.place(time: Instant(microseconds: 11_000_000), frames: 480, output: 47995)
        #expect(within.compensation?.delta == 0)
        // A card 200 ppm fast gives 9.6 frames a second too many: they are taken out as they come.
        let drifting = placement.place(time: Instant(microseconds: 11_000_000), frames: 480, output: 48000, drift: 200)
        #expect(drifting.compensation?.delta == -19)
        // 30 ms ahead, under the hard limit: at most 2000 ppm (192 frames in two seconds) are removed.
        let ahead = placement.place(time: Instant(microseconds: 11_000_000), frames: 480, output: 49440)
        #expect(ahead.compensation?.delta == -192 && ahead.skip == 0)
        #expect(placement.largestCorrection == -2000)
    }

    @Test func theSoundEndsWithThePicture() {
        var placement = SoundPlacement(format: format, start: start)
        placement.limit(to: Instant(microseconds: 12_000_000))
        let last = placement.place(time: Instant(microseconds: 11_995_000), frames: 480, output: 95760)
        #expect(last.count == 240)
        let after = placement.place(time: Instant(microseconds: 12_005_000), frames: 480, output: 96000)
        #expect(after.count == 0 && after.silence == 0)
    }

    /// Five minutes of a card 200 ppm fast, through the estimator and the
    /// placement, with an encoder that applies each compensation as asked:
    /// the sound stays within a millisecond of the picture's clock.
    @Test(arguments: [200.0, -200])
    func aDriftingCardStaysOnThePicturesClock(ppm: Double) {
        var card = SimulatedCard(ppm: ppm, jitter: 1000)
        var estimator = DriftEstimator(nominalRate: 48000)
        let takeStart = Instant(microseconds: 6_000_000)
        var placement = SoundPlacement(format: card.format, start: takeStart)
        var output = 0.0
        var compensation = (delta: 0, distance: 1)
        var worst = 0.0
        for block in 0..<(100 * 300) {
            let position = Int64(block) * 480
            estimator.add(position: position, time: card.stamp(position))
            let time = estimator.time(ofPosition: position)!
            guard time >= takeStart || output > 0 else { continue }
            let drift = estimator.span >= .seconds(10) ? estimator.ppm : nil
            let step = placement.place(time: time, frames: 480, output: Int64(output.rounded()), drift: drift)
            if let asked = step.compensation { compensation = asked }
            output +=
                Double(step.silence + step.count)
                + Double(compensation.delta) * Double(step.count) / Double(compensation.distance)
            if block > 3000 {
                let truth = (card.trueTime(position + 480) - Double(takeStart.microseconds)) * 48000 / 1_000_000
                worst = max(worst, abs(truth - output))
            }
        }
        #expect(worst < 48, "the sound was \(worst) frames off the picture")
        #expect(abs(abs(placement.largestCorrection) - abs(ppm)) < 400, "largest correction \(placement.largestCorrection) ppm")
        #expect(placement.gapFrames == 0)
    }
}

@Suite struct TestToneTests {
    @Test func itBeepsOverTheFirstTenthOfEverySecond() {
        let tone = TestTone(format: AudioFormat(rate: 48000, channels: 2))
        let samples = tone.samples(at: Instant(microseconds: 2_950_000), frames: 9600)
        let left = stride(from: 0, to: samples.count, by: 2).map { Int(samples[$0]) }
        #expect(samples[0] == samples[1])
        // 50 ms of the quiet tone, then the beep from the second's start.
        #expect(left[0..<2400].allSatisfy { abs($0) <= 2100 })
        #expect(left[2400..<7200].map(abs).max()! > 16000)
        #expect(left[7200...].allSatisfy { abs($0) <= 2100 })
    }

    @Test func theSineIsASine() {
        for step in 0...64 {
            let x = Double(step) / 64
            let expected: [Double: Double] = [0: 0, 0.25: 1, 0.5: 0, 0.75: -1]
            if let value = expected[x] { #expect(abs(TestTone.sine(x) - value) < 1e-3) }
        }
        #expect(abs(TestTone.sine(1.0 / 12) - 0.5) < 1e-3)
    }
}

import SlateCore
import Testing

@Suite struct TestPatternTests {
    @Test func planesHaveTheI420Sizes() {
        for (width, height) in [(320, 180), (64, 36), (33, 17)] {
            let frame = TestPattern(width: width, height: height).frame(index: 7, time: Instant(microseconds: 233_333))
            #expect(frame.width == width && frame.height == height)
            #expect(frame.y.count == width * height)
            #expect(frame.u.count == ((width + 1) / 2) * ((height + 1) / 2))
            #expect(frame.v.count == frame.u.count)
            #expect(frame.strides == (width, (width + 1) / 2, (width + 1) / 2))
            #expect(frame.time == Instant(microseconds: 233_333))
        }
    }

    @Test func everyFrameDiffersFromTheOneBefore() {
        let pattern = TestPattern(width: 320, height: 180)
        var previous = pattern.frame(index: 0, time: Instant(microseconds: 0))
        for index in 1..<40 {
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
            #expect(frame.y != previous.y, "frame \(index)")
            previous = frame
        }
        // The same index at another time differs too (the timestamp is drawn).
        let early = pattern.frame(index: 3, time: Instant(microseconds: 100_000))
        let late = pattern.frame(index: 3, time: Instant(microseconds: 1_100_000))
        #expect(early.y != late.y)
        #expect(early.u == late.u)
    }

    @Test func barsHaveTheirColorsAndTheTextIsWhiteOnBlack() {
        let frame = TestPattern(width: 320, height: 180).frame(index: 0, time: Instant(microseconds: 0))
        // Frame 0 is unscrolled: the middle row starts white and ends black.
        let middle = 90 * 320
        #expect(frame.y[middle] == 235)
        #expect(frame.y[middle + 319] == 16)
        let chromaMiddle = 45 * 160
        #expect(frame.u[chromaMiddle + 30] == 16)  // yellow's Cb: the second bar is 20..<40
        // The text box at the top left holds only black and white.
        let box = (0..<20).flatMap { row in frame.y[row * 320..<row * 320 + 20] }
        #expect(Set(box).isSubset(of: [16, 235]))
        #expect(box.contains(235))
    }
}

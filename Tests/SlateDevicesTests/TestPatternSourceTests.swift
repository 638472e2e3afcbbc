import SlateCore
import SlateDevices
import SlateSystem
import Testing

@Suite struct TestPatternSourceTests {
    /// Like a camera with four buffers: a reader that falls behind gets the frames
    /// still buffered, stamped when they were due, and the older ones are dropped.
    @Test func aLateReaderLosesFramesAndSeesThemCounted() {
        let source = TestPatternSource(width: 64, height: 36, fps: 50)
        let first = source.nextFrame()
        MonotonicClock.sleep(until: first.time + .milliseconds(500))
        let late = source.nextFrame()
        let missed = Int((late.time.microseconds - first.time.microseconds) / 20_000) - 1
        #expect(source.droppedFrames == missed && missed >= 20, "dropped \(source.droppedFrames), missed \(missed)")
        #expect((late.time.microseconds - first.time.microseconds) % 20_000 == 0)
        #expect(MonotonicClock.now().microseconds - late.time.microseconds >= 3 * 20_000)
    }

    @Test func aReaderThatKeepsUpLosesNothing() {
        let source = TestPatternSource(width: 64, height: 36, fps: 50)
        for _ in 0..<10 { _ = source.nextFrame() }
        #expect(source.droppedFrames == 0)
    }
}

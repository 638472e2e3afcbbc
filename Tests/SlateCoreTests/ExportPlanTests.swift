import Testing

@testable import SlateCore

@Suite struct ExportPlanTests {
    func take(_ path: String, codec: String = "h264", size: (Int, Int) = (640, 360), extradata: [UInt8] = [1, 2, 3],
              seconds: Double) -> ExportPlan.Take {
        ExportPlan.Take(
            path: path, codec: codec, width: size.0, height: size.1, extradata: extradata,
            duration: .microseconds(Int64(seconds * 1_000_000)), frameDuration: .microseconds(33_333))
    }

    @Test func equalTakesAreJoinedByStreamCopyWithRunningOffsets() throws {
        let plan = try #require(ExportPlan(takes: [take("a", seconds: 2), take("b", seconds: 1.5), take("c", seconds: 3)], filter: .none))
        #expect(plan.method == .streamCopy)
        #expect(plan.offsets == [.zero, .seconds(2), .milliseconds(3500)])
        #expect(plan.total == .milliseconds(6500))
        #expect(plan.verifies(duration: .microseconds(6_520_000)))
        #expect(plan.verifies(duration: .microseconds(6_466_667)))
        #expect(!plan.verifies(duration: .microseconds(6_540_000)))
        #expect(!plan.verifies(duration: .seconds(4)))
    }

    @Test func anyDifferenceOrAFilterMeansReencoding() {
        #expect(
            ExportPlan(takes: [take("a", seconds: 1), take("b", codec: "hevc", seconds: 1)], filter: .none)?.method
                == .reencode(reason: "b is hevc, a is h264"))
        #expect(
            ExportPlan(takes: [take("a", seconds: 1), take("b", size: (320, 180), seconds: 1)], filter: .none)?.method
                == .reencode(reason: "b is 320x180, a is 640x360"))
        #expect(
            ExportPlan(takes: [take("a", seconds: 1), take("b", extradata: [9], seconds: 1)], filter: .none)?.method
                == .reencode(reason: "b has other codec parameters than a"))
        #expect(ExportPlan(takes: [take("a", seconds: 1)], filter: .mono)?.method == .reencode(reason: "the mono filter is applied"))
        #expect(ExportPlan(takes: [], filter: .none) == nil)
        #expect(ExportPlan.fileName(at: 1_795_253_112_000_000) == "slate-20261121-092512.mp4")
    }
}

@Suite struct EncoderChoiceTests {
    typealias Probe = EncoderChoice.Probe

    @Test func theFirstEncoderThatKeepsUpWins() throws {
        let hevc = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 22)
        let h264 = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 130)
        let choice = try #require(EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080"))
        #expect(choice.probe == h264)
        #expect(
            choice.log == [
                "libx265 (hevc) encodes 1920x1080 at 22 fps, below the 36 fps needed for 30 fps",
                "libx264 (h264) encodes 1920x1080 at 130 fps: using it",
            ])
        let fast = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 57)
        #expect(EncoderChoice.pick([fast, h264], fps: 30, size: "640x360")?.probe == fast)
    }

    @Test func whenNoneKeepsUpTheFastestIsUsedWithAWarning() throws {
        let slow = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 20)
        let faster = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 50)
        let broken = Probe(codec: "h264", encoder: "h264_vaapi", framesPerSecond: nil)
        let choice = try #require(EncoderChoice.pick([broken, slow, faster], fps: 60, size: "1920x1080"))
        #expect(choice.probe == faster)
        #expect(choice.log.first == "h264_vaapi (h264) cannot be opened here")
        #expect(choice.log.last == "no encoder sustains 60 fps at 1920x1080; using the fastest, libx264: frames may be dropped")
        #expect(EncoderChoice.pick([broken], fps: 30, size: "x") == nil)
    }

    @Test func anEncoderThatNeedsTooMuchMemoryIsPassedOver() throws {
        let megabyte = 1024 * 1024
        let hevc = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 49, memory: 173 * megabyte)
        let h264 = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 104, memory: 95 * megabyte)
        let choice = try #require(EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080"))
        #expect(choice.probe == h264)
        #expect(choice.log.first == "libx265 (hevc) needs 173 MB at 1920x1080, over the 150 MB a recording may take")
        // When nothing fits, the fastest is still used, and the log says why.
        let big = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 104, memory: 160 * megabyte)
        let tooBig = try #require(EncoderChoice.pick([hevc, big], fps: 30, size: "1920x1080"))
        #expect(tooBig.probe == big)
        #expect(tooBig.log.last == "no encoder fits in 150 MB at 1920x1080; using the fastest, libx264")
        // A generous limit takes the first that keeps up.
        #expect(EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080", memoryLimit: 512 * megabyte)?.probe == hevc)
    }
}

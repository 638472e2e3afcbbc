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

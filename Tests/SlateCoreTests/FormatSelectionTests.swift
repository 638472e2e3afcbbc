import Testing

@testable import SlateCore

private func fps(_ values: Int...) -> FrameIntervals { .discrete(values.map { Fraction.interval(fps: $0) }) }

/// vivid's webcam input: discrete sizes, each with intervals down to its top rate (12.5 fps is 2/25).
private let vivid: [CameraMode] = [FourCC.yuyv, .uyvy, .nv12].flatMap { format in
    [
        CameraMode(pixelFormat: format, width: 320, height: 180, intervals: fps(60, 50, 40, 30, 25, 15, 10, 5, 4, 2, 1)),
        CameraMode(pixelFormat: format, width: 640, height: 360, intervals: fps(40, 30, 25, 15, 10, 5, 4, 2, 1)),
        CameraMode(pixelFormat: format, width: 640, height: 480, intervals: fps(25, 15, 10, 5, 4, 2, 1)),
        CameraMode(
            pixelFormat: format, width: 1280, height: 720,
            intervals: .discrete([Fraction(2, 25), .interval(fps: 10), .interval(fps: 5), .interval(fps: 1)])),
        CameraMode(pixelFormat: format, width: 1920, height: 1080, intervals: fps(5, 4, 2, 1)),
    ]
}

/// A C920-like webcam: MJPEG up to 1080p30, YUYV up to 640x480 at 30 (larger YUYV only slowly).
private let c920: [CameraMode] = [
    CameraMode(pixelFormat: .yuyv, width: 640, height: 480, intervals: fps(30, 24, 20, 15, 10, 5)),
    CameraMode(pixelFormat: .yuyv, width: 1280, height: 720, intervals: fps(10, 5)),
    CameraMode(pixelFormat: .yuyv, width: 1920, height: 1080, intervals: fps(5)),
    CameraMode(pixelFormat: .mjpeg, width: 640, height: 480, intervals: fps(30, 24, 20, 15, 10, 5)),
    CameraMode(pixelFormat: .mjpeg, width: 1280, height: 720, intervals: fps(30, 24, 20, 15, 10, 5)),
    CameraMode(pixelFormat: .mjpeg, width: 1920, height: 1080, intervals: fps(30, 24, 20, 15, 10, 5)),
]

@Suite struct FormatSelectionTests {
    @Test func fourCCStrings() {
        #expect(FourCC("MJPG") == .mjpeg)
        #expect(FourCC.yuyv.string == "YUYV")
        #expect(FourCC.h264.string == "H264")
        #expect(FourCC.yu12.string == "YU12")
        #expect(FourCC("TOOLONG") == nil)
        #expect(FourCC(rawValue: FourCC.yuyv.rawValue | 0x8000_0000).string == "YUYV-BE")
    }

    @Test func fractions() {
        #expect(Fraction(2, 50) == Fraction(1, 25))
        #expect(Fraction(1, 60) < Fraction(1, 30))
        #expect(Fraction(2, 25).fpsText == "12.5")
        #expect(Fraction(1001, 30000).fpsText == "29.97")
        #expect(Fraction(1, 30).description == "1/30")
    }

    @Test func vividAt30PicksTheLargestModeAllowingIt() {
        let outcome = FormatSelection(fps: 30).select(from: vivid)
        #expect(outcome.reachesFrameRate)
        #expect(outcome.choice?.mode.size == "640x360")
        #expect(outcome.choice?.mode.pixelFormat == .yuyv)
        #expect(outcome.choice?.interval == Fraction(1, 30))
        #expect(outcome.choice?.passesThrough == false)
    }

    @Test func vividAt60PicksTheSmallSize() {
        let outcome = FormatSelection(fps: 60).select(from: vivid)
        #expect(outcome.reachesFrameRate)
        #expect(outcome.choice?.mode.size == "320x180")
        #expect(outcome.choice?.interval == Fraction(1, 60))
    }

    @Test func vividAt25PicksThePALInterval() {
        let outcome = FormatSelection(fps: 25).select(from: vivid)
        #expect(outcome.reachesFrameRate && outcome.choice?.mode.size == "640x480")
        #expect(outcome.choice?.interval == Fraction(1, 25))
    }

    /// vivid's webcam has no 1001/30000 interval: 1/30 is the closest that keeps up, and the reason says so.
    @Test func at2997ACameraWithoutTheNTSCIntervalGets30AndOneWithItGetsIt() {
        let outcome = FormatSelection(fps: .ntsc(30)).select(from: vivid)
        #expect(outcome.reachesFrameRate && outcome.choice?.interval == Fraction(1, 30))
        #expect(outcome.reason.contains("no 1001/30000 interval, 1/30 (30 fps) instead"), "\(outcome.reason)")
        let ntsc = CameraMode(
            pixelFormat: .yuyv, width: 1920, height: 1080, intervals: .discrete([Fraction(1001, 30000), Fraction(1001, 24000)]))
        let exact = FormatSelection(fps: .ntsc(30)).select(from: [ntsc])
        #expect(exact.choice?.interval == Fraction(1001, 30000) && !exact.reason.contains("instead"))
        #expect(FormatSelection(fps: .ntsc(24)).select(from: [ntsc]).choice?.interval == Fraction(1001, 24000))
        #expect(!FormatSelection(fps: 30).select(from: [ntsc]).reachesFrameRate)
    }

    @Test func passThroughPicksMJPEGAt1080p() {
        let outcome = FormatSelection(fps: 30, passThrough: true).select(from: c920)
        #expect(outcome.choice?.mode.pixelFormat == .mjpeg)
        #expect(outcome.choice?.mode.size == "1920x1080")
        #expect(outcome.choice?.passesThrough == true)
        #expect(outcome.reason.contains("passed through"))
    }

    @Test func withoutPassThroughPicksTheLargestRaw() {
        let outcome = FormatSelection(fps: 30, passThrough: false).select(from: c920)
        #expect(outcome.choice?.mode.pixelFormat == .yuyv)
        #expect(outcome.choice?.mode.size == "640x480")
        #expect(outcome.choice?.passesThrough == false)
    }

    @Test func compressedWinsOverRawAtTheSameSizeOnlyWithPassThrough() {
        let modes = [
            CameraMode(pixelFormat: .yuyv, width: 1280, height: 720, intervals: fps(30)),
            CameraMode(pixelFormat: .mjpeg, width: 1280, height: 720, intervals: fps(30)),
            CameraMode(pixelFormat: .h264, width: 1280, height: 720, intervals: fps(30)),
        ]
        #expect(FormatSelection(fps: 30).select(from: modes).choice?.mode.pixelFormat == .h264)
        #expect(FormatSelection(fps: 30).select(from: Array(modes.prefix(2))).choice?.mode.pixelFormat == .mjpeg)
        #expect(FormatSelection(fps: 30, passThrough: false).select(from: modes).choice?.mode.pixelFormat == .yuyv)
    }

    @Test func maxSizeCaps() {
        let outcome = FormatSelection(fps: 30, maxSize: (1280, 720)).select(from: c920)
        #expect(outcome.choice?.mode.size == "1280x720")
        #expect(outcome.choice?.mode.pixelFormat == .mjpeg)
        let tiny = FormatSelection(fps: 30, maxSize: (160, 120)).select(from: c920)
        #expect(tiny.choice == nil)
        #expect(tiny.reason.contains("no mode fits within 160x120"))
    }

    @Test func emulatedFormatsAreLeftOutUnlessAllowed() {
        let modes =
            c920 + [
                CameraMode(pixelFormat: .yu12, isEmulated: true, width: 1920, height: 1080, intervals: fps(30))
            ]
        #expect(FormatSelection(fps: 30, passThrough: false).select(from: modes).choice?.mode.size == "640x480")
        let allowed = FormatSelection(fps: 30, passThrough: false, allowsEmulated: true).select(from: modes)
        #expect(allowed.choice?.mode.pixelFormat == .yu12)
        #expect(allowed.reason.contains("libv4l2"))
    }

    @Test func stepwiseIntervals() {
        // 1/1000 s steps from 1/100 to 1 s: 1/30 is not on the grid (33.33 ms); 33 ms is (30.3 fps).
        let stepwise = FrameIntervals.stepwise(min: Fraction(1, 100), max: Fraction(1, 1), step: Fraction(1, 1000))
        let modes = [CameraMode(pixelFormat: .nv12, width: 800, height: 600, intervals: stepwise)]
        let outcome = FormatSelection(fps: 30).select(from: modes)
        #expect(outcome.reachesFrameRate)
        #expect(outcome.choice?.interval == Fraction(33, 1000))
        #expect(FormatSelection(fps: 50).select(from: modes).choice?.interval == Fraction(1, 50))
        // Continuous: 1/30 itself.
        let continuous = FrameIntervals.stepwise(min: Fraction(1, 60), max: Fraction(1, 1), step: Fraction(0, 1))
        #expect(continuous.closest(atMost: Fraction(1, 30)) == Fraction(1, 30))
        // A camera that cannot go as slow as asked: its longest interval.
        let fast = FrameIntervals.stepwise(min: Fraction(1, 120), max: Fraction(1, 90), step: Fraction(0, 1))
        #expect(fast.closest(atMost: Fraction(1, 30)) == Fraction(1, 90))
        #expect(!stepwise.allows(Fraction(1, 200)))
        // UVC-like 100 ns units: products beyond 64 bits compare and step exactly.
        let uvc = FrameIntervals.stepwise(
            min: Fraction(333_333, 10_000_000), max: Fraction(2_000_000, 10_000_000), step: Fraction(1, 10_000_000))
        #expect(uvc.closest(atMost: Fraction(1, 30)) == Fraction(333_333, 10_000_000))
        #expect(uvc.closest(atMost: Fraction(1, 25)) == Fraction(1, 25))
        #expect(Fraction(4_294_967_295, 4_294_967_294) < Fraction(4_294_967_294, 4_294_967_293))
    }

    @Test func closestIntervalAboveTheFrameRate() {
        // 640x480 offers 1/40 and 1/20 but not 1/30: 40 fps is the closest rate that is at least 30.
        let modes = [CameraMode(pixelFormat: .yuyv, width: 640, height: 480, intervals: fps(40, 20))]
        let outcome = FormatSelection(fps: 30).select(from: modes)
        #expect(outcome.choice?.interval == Fraction(1, 40))
        #expect(outcome.reason.contains("1/40"))
    }

    @Test func noModeReachesTheFrameRate() {
        let outcome = FormatSelection(fps: 120).select(from: vivid)
        guard case .belowFrameRate(let choice, let reason) = outcome else {
            Issue.record("expected belowFrameRate, got \(outcome)")
            return
        }
        #expect(choice.mode.size == "320x180")
        #expect(choice.interval == Fraction(1, 60))
        #expect(reason == "no mode reaches 120 fps; the fastest is YUYV 320x180 at 60 fps")
        #expect(!outcome.reachesFrameRate)
    }

    @Test func unusableFormats() {
        let bayer = [CameraMode(pixelFormat: FourCC("BA81")!, width: 640, height: 480, intervals: fps(30))]
        let outcome = FormatSelection(fps: 30).select(from: bayer)
        #expect(outcome.choice == nil)
        #expect(outcome.reason.contains("BA81"))
        #expect(FormatSelection(fps: 30).select(from: []).reason == "the camera lists no modes")
    }

    @Test func mjpegIsDecodedWithoutPassThroughOnlyWhenNoRawFormatIsThere() throws {
        let mjpegOnly = c920.filter { $0.pixelFormat == .mjpeg }
        let decoded = try #require(FormatSelection(fps: 30, passThrough: false).select(from: mjpegOnly).choice)
        #expect(decoded.mode.size == "1920x1080" && decoded.isDecoded && !decoded.passesThrough)
        let passed = try #require(FormatSelection(fps: 30).select(from: mjpegOnly).choice)
        #expect(passed.passesThrough && !passed.isDecoded)
        let raw = try #require(FormatSelection(fps: 30, passThrough: false).select(from: c920).choice)
        #expect(raw.mode.pixelFormat == .yuyv && !raw.isDecoded)
    }

    @Test func profileCameraSection() {
        var spec = CameraSpec()
        spec.fps = 30
        spec.passthrough = false
        spec.maxSize = (640, 480)
        let selection = FormatSelection(spec)
        #expect(selection.select(from: c920).choice?.mode.description == "YUYV 640x480")
    }

    @Test func sequenceGapsAreDroppedFrames() {
        var sequence = FrameSequence()
        #expect(sequence.record(5) == 0)
        #expect(sequence.record(6) == 0)
        #expect(sequence.record(9) == 2)
        #expect(sequence.record(9) == 0)  // repeated
        #expect(sequence.record(3) == 0)  // restarted
        #expect(sequence.record(UInt32.max - 1) == 0)  // a jump of more than 2^31 back
        #expect(sequence.record(1) == 2)  // wrapped past UInt32.max and 0
        #expect(sequence.dropped == 4)
    }
}

import CAV
import SlateCore
import Testing

/// Slate's timecode against libavutil's, which writes the timecode tracks
/// editors read: the same label for every frame tried, drop-frame included.
@Suite struct TimecodeTests {
    /// libavutil's label of `frame` (frames since midnight) at `rate`.
    static func libav(_ frame: Int64, _ rate: FrameRate) -> String {
        var timecode = AVTimecode()
        let flags = (rate.dropsFrames ? AV_TIMECODE_FLAG_DROPFRAME.rawValue : 0) | AV_TIMECODE_FLAG_24HOURSMAX.rawValue
        let fps = AVRational(num: Int32(rate.frames), den: Int32(rate.seconds))
        guard av_timecode_init(&timecode, fps, Int32(flags), 0, nil) == 0 else { return "init failed" }
        var text = [CChar](repeating: 0, count: Int(AV_TIMECODE_STR_SIZE))
        return String(cString: av_timecode_make_string(&timecode, &text, Int32(frame)))
    }

    @Test(arguments: [
        FrameRate(24), FrameRate(25), FrameRate(30), FrameRate(50), FrameRate(60), FrameRate(frames: 24000, per: 1001),
        FrameRate(frames: 30000, per: 1001), FrameRate(frames: 60000, per: 1001),
    ])
    func everyLabelIsLibavs(rate: FrameRate) {
        let day = rate.frames * 86_400 / rate.seconds
        // Each minute's and each ten minutes' edges, and frames spread over the day.
        var frames: [Int64] = Array(0..<8)
        for minute in stride(from: Int64(1), through: 24 * 60, by: 7) {
            let edge = minute * 60 * rate.frames / rate.seconds
            frames += (edge - 6)...(edge + 6)
        }
        frames += stride(from: 0, to: day, by: 9_973)
        var different: [String] = []
        for frame in frames where frame >= 0 && frame < day {
            let ours = Timecode(frame: frame, rate: rate).description
            let theirs = Self.libav(frame, rate)
            if ours != theirs { different.append("\(frame): \(ours) vs \(theirs)") }
            // Read back, the label is its frame again.
            if Timecode(theirs, rate: rate)?.frame != frame {
                different.append("\(theirs) reads as \(String(describing: Timecode(theirs, rate: rate)?.frame))")
            }
        }
        #expect(different.isEmpty, "at \(rate): \(different.prefix(5))")
    }

    @Test func theTimeOfDayAtTheFrame() {
        // 10:07:03.412 at 30 fps: frame 12 of that second; at 25 fps, frame 10.
        let time: Int64 = 36_423_412_000
        #expect(Timecode(microsecondsOfDay: time, rate: FrameRate(30)).description == "10:07:03:12")
        #expect(Timecode(microsecondsOfDay: time, rate: FrameRate(25)).description == "10:07:03:10")
        // 29.97 drop-frame keeps up with the clock to within 0.108 frames an hour: frame
        // 1,091,610 since midnight is labelled 10:07:03;14, 1.6 frames ahead ten hours in.
        let ntsc = FrameRate(frames: 30000, per: 1001)
        #expect(Timecode(microsecondsOfDay: time, rate: ntsc).frame == 1_091_610)
        #expect(Timecode(microsecondsOfDay: time, rate: ntsc).description == "10:07:03;14")
        #expect(Timecode(microsecondsOfDay: 86_400_000_000 + 1, rate: FrameRate(30)).description == "00:00:00:00")
        #expect(Timecode(microsecondsOfDay: 86_399_999_999, rate: FrameRate(60)).description == "23:59:59:59")
        #expect(ntsc.description == "29.97" && FrameRate(25).description == "25" && ntsc.nominal == 30)
    }
}

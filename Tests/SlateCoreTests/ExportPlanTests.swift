import Testing

@testable import SlateCore

@Suite struct ExportPlanTests {
    func take(
        _ path: String, codec: String = "h264", size: (Int, Int) = (640, 360), extradata: [UInt8] = [1, 2, 3],
        seconds: Double
    ) -> ExportPlan.Take {
        ExportPlan.Take(
            path: path, codec: codec, width: size.0, height: size.1, extradata: extradata,
            duration: .microseconds(Int64(seconds * 1_000_000)), frameDuration: .microseconds(33_333))
    }

    @Test func equalTakesAreJoinedByStreamCopyWithRunningOffsets() throws {
        let plan = try #require(
            ExportPlan(takes: [take("a", seconds: 2), take("b", seconds: 1.5), take("c", seconds: 3)], filter: .none))
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
        #expect(
            ExportPlan(takes: [take("a", seconds: 1)], filter: .mono)?.method == .reencode(reason: "the mono filter is applied"))
        #expect(ExportPlan(takes: [], filter: .none) == nil)
    }

    /// `camera.export-name`: the rig, the local date and time, and nothing a file name should not hold.
    @Test func exportsAreNamedByTheirTemplate() throws {
        let at: Int64 = 1_795_253_112_000_000
        #expect(ExportName.standard.fileName(rig: "cam-a", local: at) == "cam-a-20261121-092512.mp4")
        // New York is five hours behind: 04:25 there.
        #expect(ExportName.standard.fileName(rig: "cam-a", local: at - 5 * 3_600_000_000) == "cam-a-20261121-042512.mp4")
        #expect(ExportName.standard.fileName(rig: "Cam A/1", local: at) == "Cam-A-1-20261121-092512.mp4")
        #expect(ExportName.standard.fileName(rig: "", local: at) == "slate-20261121-092512.mp4")
        // An unset host name, `(none)`, would start the name with '-'.
        #expect(ExportName.standard.fileName(rig: "(none)", local: at) == "slate-20261121-092512.mp4")
        let shoot = try ExportName.parse("shoot_{date}.{time}-{rig}").get()
        #expect(shoot.fileName(rig: "b", local: at) == "shoot_20261121.092512-b.mp4")
        let refused = [
            ("", "must be 1 to 100 characters"), ("{rig}-{date}", "needs {time}, so that exports differ"),
            ("{take}-{time}", "has {take}; it takes {rig}, {date} and {time}"), ("{time", "has a '{' without its '}'"),
            ("a/{time}", "has '/'; it takes letters, digits, '-', '_' and '.'"),
            ("{time} b", "has ' '; it takes letters, digits, '-', '_' and '.'"), (".{time}", "must not start with '.' or '-'"),
            ("-{time}", "must not start with '.' or '-'"), ("{rig}{rig}{time}", "has {rig} twice"),
            (String(repeating: "a", count: 95) + "{time}", "must be 1 to 100 characters"),
        ]
        for (template, reason) in refused {
            #expect(throws: ExportNameError(reason: reason)) { try ExportName.parse(template).get() }
        }
    }

    /// AAC at 48 kHz mono covering `seconds` from its priming, or as told.
    func sound(
        seconds: Double, codec: String = "aac", rate: Int = 48000, start: Int64 = -1024, end: Int64? = nil
    ) -> ExportPlan.Sound {
        ExportPlan.Sound(
            codec: codec, format: AudioFormat(rate: rate, channels: 1), extradata: [0x11, 0x88], frameSize: 1024,
            start: start, end: end ?? Int64(seconds * Double(rate)) + 128)
    }

    func take(_ path: String, seconds: Double, sound: ExportPlan.Sound?) -> ExportPlan.Take {
        var take = take(path, seconds: seconds)
        take.sound = sound
        return take
    }

    @Test func soundIsCopiedWhenEveryTakesCanBeElseReencoded() {
        let plan = { (takes: [ExportPlan.Take]) in ExportPlan(takes: takes, filter: .mono)?.sound }
        #expect(plan([take("a", seconds: 1), take("b", seconds: 1)]) == nil)
        #expect(
            plan([take("a", seconds: 1, sound: sound(seconds: 1)), take("b", seconds: 2, sound: sound(seconds: 2))]) == .copy)
        #expect(
            plan([take("a", seconds: 1, sound: sound(seconds: 1)), take("b", seconds: 1)]) == .reencode(reason: "b has no sound"))
        #expect(
            plan([take("a", seconds: 1, sound: sound(seconds: 1)), take("b", seconds: 1, sound: sound(seconds: 1, rate: 44100))])
                == .reencode(reason: "b's sound is aac 44100 Hz mono, a's is aac 48000 Hz mono"))
        #expect(
            plan([take("a", seconds: 1, sound: sound(seconds: 1, codec: "pcm_s16le", start: 0))])
                == .reencode(reason: "PCM sound is stored as AAC in an MP4 export"))
        // Within one audio frame of its picture is whole; more is a sound that stopped early or started late.
        #expect(plan([take("a", seconds: 1, sound: sound(seconds: 1, end: 48000 - 1024))]) == .copy)
        #expect(
            plan([take("a", seconds: 2, sound: sound(seconds: 2, end: 48000))])
                == .reencode(reason: "a's sound stops 1.000 s before its picture"))
        #expect(
            plan([take("a", seconds: 2, sound: sound(seconds: 2, start: 24000))])
                == .reencode(reason: "a's sound starts 0.500 s into the take"))
    }

    @Test func aTakesSoundMustSpanItsPictureToOneAudioFrame() {
        let format = AudioFormat(rate: 48000, channels: 1)
        let spans = [
            ExportPlan.SoundSpan(path: "a", picture: 96000, sound: 96000 - 1024),
            ExportPlan.SoundSpan(path: "b", picture: 96000, sound: 72000),
        ]
        #expect(ExportPlan.soundMismatch(Array(spans.prefix(1)), format: format, tolerance: 1024) == nil)
        #expect(
            ExportPlan.soundMismatch(spans, format: format, tolerance: 1024)
                == "b's sound is 0.500 s short of its picture in the joined file (1.500 s of sound for 2.000 s)")
    }
}

@Suite struct EncoderChoiceTests {
    typealias Probe = EncoderChoice.Probe
    static let megabyte = 1024 * 1024

    @Test func theProfilesFirstCodecThatKeepsUpWins() throws {
        let hevc = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 22, memory: 140 * Self.megabyte, cpu: 1.9)
        let h264 = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 130, memory: 95 * Self.megabyte, cpu: 0.46)
        let choice = try #require(EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080"))
        #expect(choice.probe == h264)
        #expect(
            choice.log == [
                "libx265 (hevc) encodes 1920x1080 at 22 fps with 1.90 of a core, 140 MB, below the 36 fps needed for 30 fps",
                "libx264 (h264) encodes 1920x1080 at 130 fps with 0.46 of a core, 95 MB: using it",
            ])
        // HEVC that keeps up wins over a cheaper H.264: the codec is the profile's choice.
        let fast = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 57, cpu: 0.9)
        let choice640 = try #require(EncoderChoice.pick([fast, h264], fps: 30, size: "640x360"))
        #expect(choice640.probe == fast)
        #expect(choice640.log.last?.hasSuffix(": keeps up, but the profile prefers hevc") == true, "\(choice640.log)")
    }

    /// Of a codec's encoders that keep up, the one with the least CPU, whatever the order they were probed in.
    @Test func aHardwareEncoderThatKeepsUpWinsOnCPUNotOnOrder() throws {
        let x264 = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 130, memory: 95 * Self.megabyte, cpu: 0.46)
        let vaapi = Probe(codec: "h264", encoder: "h264_vaapi", framesPerSecond: 240, memory: 70 * Self.megabyte, cpu: 0.06)
        let nvenc = Probe(
            codec: "h264", encoder: "h264_nvenc", framesPerSecond: nil, failure: "no CUDA device: Cannot load libcuda.so.1")
        let m2m = Probe(codec: "h264", encoder: "h264_v4l2m2m", framesPerSecond: 31, memory: 60 * Self.megabyte, cpu: 0.02)
        let choice = try #require(EncoderChoice.pick([x264, vaapi, nvenc, m2m], fps: 30, size: "1920x1080"))
        #expect(choice.probe == vaapi)
        #expect(
            choice.log == [
                "libx264 (h264) encodes 1920x1080 at 130 fps with 0.46 of a core, 95 MB: keeps up, but h264_vaapi costs less",
                "h264_vaapi (h264) encodes 1920x1080 at 240 fps with 0.06 of a core, 70 MB: using it",
                "h264_nvenc (h264) cannot be opened here: no CUDA device: Cannot load libcuda.so.1",
                "h264_v4l2m2m (h264) encodes 1920x1080 at 31 fps with 0.02 of a core, 60 MB, below the 36 fps needed for 30 fps",
            ])
        #expect(EncoderChoice.judge([x264, vaapi, nvenc, m2m], fps: 30) == [.passedOver, .picked, .unavailable, .tooSlow])
        // CPU in the same step of 0.05 of a core is the same cost: the lighter in memory wins, in any order;
        // unknown CPU counts as the most.
        let qsv = Probe(codec: "h264", encoder: "h264_qsv", framesPerSecond: 200, memory: 50 * Self.megabyte, cpu: 0.07)
        #expect(EncoderChoice.pick([vaapi, qsv], fps: 30, size: "x")?.probe == qsv)
        #expect(EncoderChoice.pick([qsv, vaapi], fps: 30, size: "x")?.probe == qsv)
        let a = Probe(codec: "h264", encoder: "a", framesPerSecond: 99, memory: 100, cpu: 0.10)
        let b = Probe(codec: "h264", encoder: "b", framesPerSecond: 99, memory: 50, cpu: 0.14)
        let c = Probe(codec: "h264", encoder: "c", framesPerSecond: 99, memory: 10, cpu: 0.18)
        for order in [[a, b, c], [c, a, b], [b, c, a], [c, b, a]] {
            #expect(EncoderChoice.pick(order, fps: 30, size: "x")?.probe == a, "\(order.map(\.encoder))")
        }
        let unmeasured = Probe(codec: "h264", encoder: "h264_vaapi", framesPerSecond: 240)
        #expect(EncoderChoice.pick([unmeasured, x264], fps: 30, size: "x")?.probe == x264)
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

    @Test func anEncoderThatNeedsTooMuchMemoryIsRefused() throws {
        let hevc = Probe(codec: "hevc", encoder: "libx265", framesPerSecond: 49, memory: 173 * Self.megabyte)
        let h264 = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 104, memory: 95 * Self.megabyte)
        let choice = try #require(EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080"))
        #expect(choice.probe == h264)
        #expect(
            choice.log.first == "libx265 (hevc) encodes 1920x1080 at 49 fps, 173 MB: over the 150 MB a recording may take")
        // When nothing fits, the fastest is still used, and the log says why.
        let big = Probe(codec: "h264", encoder: "libx264", framesPerSecond: 104, memory: 160 * Self.megabyte)
        let tooBig = try #require(EncoderChoice.pick([hevc, big], fps: 30, size: "1920x1080"))
        #expect(tooBig.probe == big)
        #expect(tooBig.log.last == "no encoder fits in 150 MB at 1920x1080; using the fastest, libx264")
        // A generous limit takes the first codec that keeps up.
        #expect(
            EncoderChoice.pick([hevc, h264], fps: 30, size: "1920x1080", memoryLimit: 512 * Self.megabyte)?.probe == hevc)
    }
}

import SlateCore
import SlateMedia
import Synchronization
import Testing

@Suite struct EncoderProbeTests {
    @Test func oneCodecWithOneEncoderIsTakenWithoutAProbe() {
        let choice = EncoderChoice.probing(codecs: ["nosuchcodec"], width: 320, height: 180, fps: 30)
        #expect(choice?.encoder == "nosuchcodec" && choice?.log == [])
    }

    /// Every encoder of H.264 is probed (this machine has no GPU: each
    /// hardware encoder fails on its device, through libav's own error
    /// paths), and libx264 is picked, each with a line that says why.
    @Test(
        .enabled(if: !HardwareEncoderTests.hasGPU && !HardwareEncoderTests.hasVideoNodes, "this machine may encode in hardware"))
    func everyEncoderOfACodecIsProbedAndThoseThatCannotOpenSayWhy() throws {
        let choice = try #require(EncoderChoice.probing(codecs: ["nosuchcodec", "h264"], width: 320, height: 180, fps: 30))
        #expect(choice.encoder == "libx264")
        #expect(choice.log.first == "nosuchcodec (nosuchcodec) cannot be opened here: not in this libavcodec")
        #expect(choice.log.count == 1 + VideoEncoder.encoderNames(for: "h264").count, "\(choice.log)")
        #expect(choice.log.contains { $0.hasPrefix("libx264 (h264) encodes 320x180 at ") && $0.hasSuffix(": using it") })
        for hardware in ["h264_vaapi", "h264_qsv", "h264_nvenc", "h264_v4l2m2m"] {
            #expect(choice.log.contains { $0.hasPrefix("\(hardware) (h264) cannot be opened here: ") }, "\(choice.log)")
        }
        // libav's own words come with its error code's.
        #expect(
            choice.log.contains { $0.hasPrefix("h264_v4l2m2m (h264) cannot be opened here: ") && $0.contains(" (libav: ") },
            "\(choice.log)")
    }

    /// The codecs after one that keeps up are not probed: they could not be picked.
    @Test func theCodecsAfterOneThatKeepsUpAreNotProbed() throws {
        let measured = Mutex<[String]>([])
        let measure: EncoderChoice.Measure = { encoder, codec, _, _, _ in
            measured.withLock { $0.append(encoder) }
            return EncoderChoice.Probe(
                codec: codec, encoder: encoder, framesPerSecond: encoder == "h264_v4l2m2m" ? 60 : nil, cpu: 0.02)
        }
        let probed = EncoderChoice.probing(codecs: ["h264", "hevc"], width: 1920, height: 1080, fps: 30, measure: measure)
        #expect(probed?.encoder == "h264_v4l2m2m")
        #expect(measured.withLock { $0 } == VideoEncoder.encoderNames(for: "h264"))
    }

    /// An encoder whose device is missing is not measured; one left is taken without a probe.
    @Test func encodersWithoutTheirDevicesAreNotMeasured() throws {
        let measured = Mutex<[String]>([])
        let measure: EncoderChoice.Measure = { encoder, codec, _, _, _ in
            measured.withLock { $0.append(encoder) }
            return EncoderChoice.Probe(codec: codec, encoder: encoder, framesPerSecond: 100)
        }
        let probed = EncoderChoice.probing(
            codecs: ["h264"], width: 1920, height: 1080, fps: 30, missing: { $0 == "libx264" ? nil : "no device for \($0)" },
            measure: measure)
        let choice = try #require(probed)
        #expect(choice.encoder == "libx264" && measured.withLock { $0 }.isEmpty)
        #expect(choice.log.first == "h264_vaapi (h264) cannot be opened here: no device for h264_vaapi" && choice.log.count == 4)
    }
}

import SlateCore
import SlateMedia
import Testing

@Suite struct EncoderProbeTests {
    @Test func oneCodecIsTakenWithoutAProbe() {
        let choice = EncoderChoice.probing(codecs: ["nosuchcodec"], width: 320, height: 180, fps: 30)
        #expect(choice?.codec == "nosuchcodec" && choice?.log == [])
    }

    @Test func anEncoderThatCannotOpenIsPassedOver() throws {
        let choice = try #require(EncoderChoice.probing(codecs: ["nosuchcodec", "h264"], width: 320, height: 180, fps: 30))
        #expect(choice.codec == "h264")
        #expect(choice.log.first == "nosuchcodec (nosuchcodec) cannot be opened here")
    }
}

import Foundation
import SlateCore
import Testing

@testable import SlateMedia

/// Hardware encoders on a machine without their devices (no GPU, no V4L2 M2M
/// device, as CI's): each is opened for real, through libav's device, surface
/// and encoder setup, and refused with the step that failed and libav's reason.
@Suite struct HardwareEncoderTests {
    /// Whether this machine has a GPU's device nodes (its encoders may open).
    static let hasGPU = ["/dev/dri", "/dev/nvidiactl"].contains(where: FileManager.default.fileExists)
    /// Whether it has V4L2 nodes at all (one may be a memory-to-memory encoder).
    static let hasVideoNodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains {
        $0.hasPrefix("video")
    }

    @Test(
        .enabled(if: !hasGPU, "this machine has a GPU: its encoders may open"),
        arguments: [
            ("h264_vaapi", "cannot open a VAAPI device: "), ("hevc_vaapi", "cannot open a VAAPI device: "),
            ("h264_qsv", "cannot open a QSV device: "), ("hevc_qsv", "cannot open a QSV device: "),
            ("h264_nvenc", "cannot open a CUDA device: "), ("hevc_nvenc", "cannot open a CUDA device: "),
        ])
    func anEncoderWithoutItsDeviceIsRefusedSayingWhich(encoder: String, reason: String) {
        let result = Result { () throws(MediaError) in
            try VideoEncoder(codecs: [encoder], width: 1920, height: 1080, fps: FrameRate(30))
        }
        guard case .failure(let error) = result else {
            Issue.record("\(encoder) opened: this machine has its device")
            return
        }
        #expect(
            error.message.hasPrefix("\(encoder): \(reason)") && error.message.count > "\(encoder): \(reason)".count, "\(error)")
    }

    /// V4L2 M2M has no device context: the encoder itself looks for a device and finds none.
    @Test(.enabled(if: !hasVideoNodes, "this machine has V4L2 nodes: one may encode"))
    func aV4L2M2MEncoderWithoutADeviceIsRefusedByLibav() {
        let result = Result { () throws(MediaError) in
            try VideoEncoder(codecs: ["h264_v4l2m2m"], width: 640, height: 360, fps: FrameRate(30))
        }
        guard case .failure(let error) = result else {
            Issue.record("h264_v4l2m2m opened: this machine has a V4L2 M2M encoder")
            return
        }
        #expect(error.message.hasPrefix("h264_v4l2m2m: "), "\(error)")
    }

    @Test func encodersAreTheirDevicesKind() {
        #expect(HardwareFrames.Kind(encoder: "h264_vaapi") == .vaapi && HardwareFrames.Kind(encoder: "hevc_qsv") == .qsv)
        #expect(HardwareFrames.Kind(encoder: "hevc_nvenc") == .cuda && HardwareFrames.Kind(encoder: "libx264") == nil)
        #expect(HardwareFrames.Kind(encoder: "h264_v4l2m2m") == nil)
    }

    /// A stream whose keyframes come without parameter sets gets them in
    /// front of each (as a V4L2 M2M encoder's does): a keyframe from the
    /// middle decodes on its own.
    @Test func parameterSetsAreRepeatedBeforeEachKeyframeWithoutThem() throws {
        let encoder = try VideoEncoder(codecs: ["libx264"], width: 320, height: 180, fps: FrameRate(30))
        let pattern = TestPattern(width: 320, height: 180)
        var keyframes: [[UInt8]] = []
        for index in 0..<61 {
            let frame = pattern.frame(index: index, time: Instant(microseconds: Int64(index) * 33_333))
            for packet in try encoder.encode(frame, pts: Int64(index)) where packet.isKeyframe { keyframes.append(packet.data) }
        }
        let extradata = encoder.parameters.extradata
        // libx264 with a global header writes no parameter sets into its keyframes.
        #expect(keyframes.count == 3 && !H264ParameterSets.hasParameterSets(keyframes[1]))
        let repeated = H264ParameterSets.prefixed(keyframes[1], with: extradata)
        #expect(H264ParameterSets.hasParameterSets(repeated) && repeated.count == keyframes[1].count + extradata.count)
        #expect(H264ParameterSets.prefixed(repeated, with: extradata) == repeated)
        let decoder = try MJPEGDecoder(codec: "h264")
        let picture = try decoder.decode(CompressedFrame(data: repeated, time: Instant(microseconds: 0), isKeyframe: true))
        #expect(picture?.width == 320 && picture?.height == 180)
    }
}

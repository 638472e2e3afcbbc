import Testing

@testable import SlateCore

/// What a V4L2 format states, as a take's colour tags: V4L2's defaults filled in from the colorspace.
@Suite struct ColorTagsTests {
    /// vivid's webcam, as most webcams: sRGB with its defaults (BT.601's matrix, limited range for YUV).
    @Test func aWebcamsSRGBYUVIsBT709PrimariesSRGBTransferAndBT601Matrix() {
        let tags = ColorTags(v4l2Colorspace: 8, encoding: 0, quantization: 0, transfer: 0, isRGB: false)
        #expect(tags == ColorTags(primaries: "bt709", transfer: "iec61966-2-1", matrix: "smpte170m", fullRange: false))
        #expect(tags.range == "tv")
        // RGB from the same camera is full range; libswscale makes limited-range BT.601 YUV of it.
        let rgb = ColorTags(v4l2Colorspace: 8, encoding: 0, quantization: 0, transfer: 0, isRGB: true)
        #expect(rgb.fullRange && rgb.convertedToLimitedYUV(fromRGB: true).range == "tv")
        #expect(rgb.convertedToLimitedYUV(fromRGB: true).matrix == "smpte170m")
    }

    /// uvcvideo says sRGB with no range for MJPEG; the frames are JFIF's full-range BT.601 all the same.
    @Test func aWebcamsMJPEGIsJFIFWhateverTheDriverSays() {
        let uvc = ColorTags(v4l2Colorspace: 8, encoding: 0, quantization: 0, transfer: 0, isRGB: false)
        #expect(uvc.jpeg == ColorTags(primaries: "bt709", transfer: "iec61966-2-1", matrix: "smpte170m", fullRange: true))
        #expect(ColorTags.bt709.jpeg.matrix == "smpte170m" && ColorTags.bt709.jpeg.fullRange)
    }

    @Test func jpegIsFullRangeAndDecodedBecomesLimited() {
        let jpeg = ColorTags(v4l2Colorspace: 7, encoding: 0, quantization: 0, transfer: 0, isRGB: false)
        #expect(jpeg == ColorTags(primaries: "bt709", transfer: "iec61966-2-1", matrix: "smpte170m", fullRange: true))
        #expect(
            jpeg.convertedToLimitedYUV(fromRGB: false)
                == ColorTags(
                    primaries: "bt709", transfer: "iec61966-2-1", matrix: "smpte170m", fullRange: false))
    }

    @Test func whatTheDriverStatesOverridesTheColorspacesDefaults() {
        #expect(ColorTags(v4l2Colorspace: 3, encoding: 0, quantization: 0, transfer: 0, isRGB: false) == .bt709)
        // SMPTE 170M's transfer is BT.709's curve, as V4L2 maps it.
        #expect(
            ColorTags(v4l2Colorspace: 1, encoding: 0, quantization: 0, transfer: 0, isRGB: false)
                == ColorTags(primaries: "smpte170m", transfer: "bt709", matrix: "smpte170m", fullRange: false))
        let stated = ColorTags(v4l2Colorspace: 8, encoding: 2, quantization: 1, transfer: 1, isRGB: false)
        #expect(stated == ColorTags(primaries: "bt709", transfer: "bt709", matrix: "bt709", fullRange: true))
        let hdr = ColorTags(v4l2Colorspace: 10, encoding: 0, quantization: 2, transfer: 7, isRGB: false)
        #expect(hdr == ColorTags(primaries: "bt2020", transfer: "smpte2084", matrix: "bt2020nc", fullRange: false))
        // A driver that states no colorspace: BT.709, as HD video is, but for what else it states.
        #expect(ColorTags(v4l2Colorspace: 0, encoding: 0, quantization: 0, transfer: 0, isRGB: false) == .bt709)
        #expect(
            ColorTags(v4l2Colorspace: 0, encoding: 1, quantization: 1, transfer: 2, isRGB: false)
                == ColorTags(primaries: "bt709", transfer: "iec61966-2-1", matrix: "smpte170m", fullRange: true))
        // opRGB has no libav primaries or transfer: unknown, not guessed.
        let oprgb = ColorTags(v4l2Colorspace: 9, encoding: 0, quantization: 0, transfer: 0, isRGB: false)
        #expect(oprgb.primaries == nil && oprgb.transfer == "gamma22" && oprgb.matrix == "smpte170m")
    }
}

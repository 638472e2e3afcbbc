import Testing

@testable import SlateCore

@Suite struct ExportFilterPixelTests {
    /// A 64x48 frame with a luma gradient and strongly coloured chroma.
    func frame() -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let y = (0..<(64 * 48)).map { (index: Int) -> UInt8 in UInt8((index % 64) * 4) }
        let u = (0..<(32 * 24)).map { (index: Int) -> UInt8 in UInt8(40 + (index % 7) * 25) }
        let v = (0..<(32 * 24)).map { (index: Int) -> UInt8 in UInt8(220 - (index % 5) * 30) }
        return (y, u, v)
    }

    func mean(_ values: [UInt8]) -> Double { Double(values.reduce(0) { $0 + Int($1) }) / Double(values.count) }

    func spread(_ values: [UInt8]) -> Double {
        let average = mean(values)
        return (values.reduce(0.0) { $0 + (Double($1) - average) * (Double($1) - average) } / Double(values.count))
            .squareRoot()
    }

    @Test func monoRemovesColourAndSoftensContrast() {
        var (y, u, v) = frame()
        let before = spread(y)
        ExportFilter.mono.apply(width: 64, height: 48, y: &y, u: &u, v: &v)
        #expect(u.allSatisfy { $0 == 128 } && v.allSatisfy { $0 == 128 })
        #expect(abs(spread(y) / before - 0.85) < 0.01)
        #expect(y.min()! >= 19 && y.max()! <= 236)
    }

    @Test func sepiaTintsBrownByLuma() {
        var (y, u, v) = frame()
        let luma = y
        ExportFilter.sepia.apply(width: 64, height: 48, y: &y, u: &u, v: &v)
        #expect(y == luma)
        #expect(mean(u) < 120 && mean(v) > 132)
        for index in u.indices {
            let blue = 128 - Int(u[index]), red = Int(v[index]) - 128
            #expect(blue >= 0 && red == blue * 3 / 5)
        }
        #expect(u[0] == 128 && v[0] == 128)
    }

    /// Mid-grey turned sepia is a warm brown (BT.601, limited range): red over
    /// green over blue, with the hue of the classic sepia matrix (about 38 degrees).
    @Test func sepiaMidGreyIsBrown() {
        var y = [UInt8](repeating: 126, count: 4), u = [UInt8](repeating: 128, count: 1), v = u
        ExportFilter.sepia.apply(width: 2, height: 2, y: &y, u: &u, v: &v)
        let luma = 1.164 * (Double(y[0]) - 16), cb = Double(u[0]) - 128, cr = Double(v[0]) - 128
        let (red, green, blue) = (luma + 1.596 * cr, luma - 0.392 * cb - 0.813 * cr, luma + 2.017 * cb)
        #expect(red > green && green > blue)
        let hue = 60 * (green - blue) / (red - blue)
        #expect(hue > 30 && hue < 45)
    }

    @Test func noneChangesNothing() {
        var (y, u, v) = frame()
        let original = frame()
        ExportFilter.none.apply(width: 64, height: 48, y: &y, u: &u, v: &v)
        #expect(y == original.y && u == original.u && v == original.v)
    }
}

@Suite struct ZoomRampTests {
    @Test func targetsAreClampedToTheCameraAndSixX() {
        var zoom = ZoomRamp()
        #expect(zoom.aim(at: 9) == 6)
        #expect(zoom.aim(at: 0.5) == 1)
        var small = ZoomRamp(cameraMaximum: 5)
        #expect(small.aim(at: 5.5) == 5)
    }

    @Test func theFactorRampsInsteadOfJumping() {
        var zoom = ZoomRamp(rate: 5)
        zoom.aim(at: 3)
        #expect(zoom.advance(by: .milliseconds(100)) == 1.5)
        #expect(zoom.advance(by: .milliseconds(100)) == 2)
        #expect(zoom.advance(by: .seconds(1)) == 3)
        zoom.aim(at: 2.5)
        #expect(zoom.advance(by: .milliseconds(20)) == 2.9)
    }

    @Test func cropIsCentredAndEven() {
        var zoom = ZoomRamp(rate: 100)
        zoom.aim(at: 2)
        zoom.advance(by: .seconds(1))
        #expect(zoom.crop(width: 1920, height: 1080) == (480, 270, 960, 540))
        zoom.aim(at: 3)
        zoom.advance(by: .seconds(1))
        let crop = zoom.crop(width: 640, height: 360)
        #expect(crop.width == 212 && crop.height == 120 && crop.x % 2 == 0 && crop.y % 2 == 0)
    }
}

@Suite struct CameraCandidatesTests {
    let present = [
        CameraCandidates.Present(
            path: "/dev/video2", card: "HD Pro Webcam C920",
            links: ["/dev/v4l/by-id/usb-046d_HD_Pro_Webcam_C920_8A3F-video-index0"]),
        CameraCandidates.Present(path: "/dev/video0", card: "Integrated Camera"),
    ]

    @Test func theFirstCandidatePresentWins() {
        #expect(
            CameraCandidates.pick(["/dev/v4l/by-id/usb-046d_*-video-index0", "/dev/video0"], present: present)
                == .device("/dev/video2"))
        #expect(CameraCandidates.pick(["card:Integrated*", "/dev/video2"], present: present) == .device("/dev/video0"))
        #expect(CameraCandidates.pick(["/dev/video9", "testpattern"], present: present) == .testPattern)
        #expect(CameraCandidates.pick(["/dev/video9", "card:Nope"], present: present) == nil)
        #expect(CameraCandidates.pick(["/dev/video*"], present: []) == nil)
    }
}

@Suite struct MirrorTests {
    @Test func mirroringFlipsEveryPlaneLeftToRightAndTwiceIsNothing() {
        let width = 6, height = 4
        let y = (0..<(width * height)).map { UInt8($0) }
        let u = (0..<6).map { UInt8(100 + $0) }, v = (0..<6).map { UInt8(200 + $0) }
        let original = VideoFrame(width: width, height: height, y: y, u: u, v: v, time: Instant(microseconds: 0))
        var frame = original
        frame.mirror()
        #expect(Array(frame.y[0..<6]) == [5, 4, 3, 2, 1, 0])
        #expect(Array(frame.y[18..<24]) == [23, 22, 21, 20, 19, 18])
        #expect(frame.u == [102, 101, 100, 105, 104, 103] && frame.v == [202, 201, 200, 205, 204, 203])
        frame.mirror()
        #expect(frame.y == original.y && frame.u == original.u && frame.v == original.v)
    }
}

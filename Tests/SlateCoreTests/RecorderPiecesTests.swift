import Testing

@testable import SlateCore

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

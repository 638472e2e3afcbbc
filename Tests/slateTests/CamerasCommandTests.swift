import Foundation
import Testing

/// `slate cameras` without a camera; with vivid it is tests/vm/scenario-camera.sh.
@Suite struct CamerasCommandTests {
    /// Whether this machine has no /dev/video* node (the rig VM's scenario lists vivid's).
    static let noVideoNodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).allSatisfy {
        !$0.hasPrefix("video")
    }

    @Test(.enabled(if: noVideoNodes, "this machine has /dev/video* nodes")) func listingWithoutCamerasSaysSo() throws {
        for format in [["--json"], []] {
            let result = try CLI.run(["cameras"] + format)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(format): \(result.stdout)")
            #expect(result.stderr == "slate cameras: no V4L2 capture devices (/dev/video*) found\n", "\(format)")
        }
    }

    @Test func testingAMissingDeviceIsAnErrorNamingIt() throws {
        let result = try CLI.run(["cameras", "--test", "/nonexistent/video9", "--frames", "5"])
        #expect(result.status == 1)
        #expect(result.stderr == "slate cameras: /nonexistent/video9: cannot open: No such file or directory (ENOENT)\n")
    }

    @Test func badOptionsAreRejected() throws {
        #expect(try CLI.run(["cameras", "--control", "Brightness=1"]).stderr.contains("--control needs --test DEVICE"))
        #expect(try CLI.run(["cameras", "--max-size", "big"]).stderr.contains("--max-size must be WIDTHxHEIGHT"))
        let noValue = try CLI.run(["cameras", "--test", "/dev/video0", "--control", "Hue"])
        #expect(noValue.status != 0)
        #expect(
            noValue.stderr.contains("--control takes ID=VALUE such as Brightness=200 or 0x00980900=200, not 'Hue'"),
            "\(noValue.stderr)")
    }
}

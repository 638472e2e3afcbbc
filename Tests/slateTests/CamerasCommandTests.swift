import Foundation
import Testing

/// `slate cameras` without a camera; with vivid it is tests/vm/scenario-camera.sh.
@Suite struct CamerasCommandTests {
    @Test func listingRunsWithOrWithoutCameras() throws {
        let result = try CLI.run(["cameras", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.allSatisfy { $0.hasPrefix("{\"path\":\"/dev/video") })
    }

    @Test func testingAMissingDeviceIsAnErrorNamingIt() throws {
        let result = try CLI.run(["cameras", "--test", "/nonexistent/video9", "--frames", "5"])
        #expect(result.status == 1)
        #expect(result.stderr == "slate cameras: /nonexistent/video9: cannot open: No such file or directory\n")
    }

    @Test func badOptionsAreRejected() throws {
        #expect(try CLI.run(["cameras", "--control", "Brightness=1"]).stderr.contains("--control needs --test DEVICE"))
        #expect(try CLI.run(["cameras", "--max-size", "big"]).stderr.contains("--max-size must be WIDTHxHEIGHT"))
        #expect(try CLI.run(["cameras", "--test", "/dev/video0", "--control", "Hue"]).status != 0)
    }
}

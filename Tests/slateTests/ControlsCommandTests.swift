import Foundation
import Testing

/// `slate controls` without a camera; with vivid it is tests/vm/scenario-controls.sh.
@Suite struct ControlsCommandTests {
    @Test(.enabled(if: CamerasCommandTests.noVideoNodes, "this machine has /dev/video* nodes"))
    func withoutCamerasItSaysSo() throws {
        for arguments in [["controls"], ["controls", "--json"], ["controls", "--watch"], ["controls", "set", "hue=1"]] {
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr == "slate controls: no V4L2 capture devices (/dev/video*) found\n", "\(arguments)")
        }
    }

    @Test func aCameraThatCannotBeOpenedIsNamed() throws {
        let result = try CLI.run(["controls", "--camera", "/nonexistent/video9", "--json"])
        #expect(result.status == 1)
        #expect(result.stderr == "slate controls: /nonexistent/video9: cannot open: No such file or directory (ENOENT)\n")
        let notACamera = try CLI.run(["controls", "--camera", "/dev/null", "set", "brightness=1"])
        #expect(notACamera.status == 1)
        #expect(notACamera.stderr.hasPrefix("slate controls: /dev/null: cannot query capabilities: VIDIOC_QUERYCAP"))
    }

    @Test func badArgumentsAreRejected() throws {
        let word = try CLI.run(["controls", "brightness=1"])
        #expect(word.status != 0 && word.stderr.contains("expected `set NAME=VALUE ...`, not 'brightness=1'"), "\(word.stderr)")
        let nothing = try CLI.run(["controls", "set"])
        #expect(nothing.status != 0 && nothing.stderr.contains("expected `set NAME=VALUE ...`"), "\(nothing.stderr)")
        let noValue = try CLI.run(["controls", "set", "brightness"])
        #expect(noValue.stderr.contains("set takes NAME=VALUE such as brightness=200, not 'brightness'"), "\(noValue.stderr)")
        let both = try CLI.run(["controls", "--watch", "set", "hue=1"])
        #expect(both.stderr.contains("--watch and set cannot go together"), "\(both.stderr)")
    }
}

import Foundation
import SlateCore
import SlateTestSupport
import Testing

/// `slate setup` from a recording of the presses: a checked profile, never over one that is there.
@Suite struct SetupCommandTests {
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "slate-setup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func presses(in folder: String) throws -> String {
        let path = folder + "/pedals.evemu"
        let session = TestDevice.footswitch.session(
            [(TestDevice.left, 1, 1.1), (TestDevice.middle, 2, 2.1), (TestDevice.right, 3, 3.1)], end: 4)
        try session.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func yesWritesTheDefaultsAsACheckedProfile() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/config/slate/rig.yaml"
        let setup = try CLI.run(["setup", "--yes", "--replay", try presses(in: folder), "--output", output])
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(setup.stdout.contains("pressed on PCsensor FootSwitch"), "\(setup.stdout)")
        #expect(setup.stdout.contains("KEY_A, KEY_B, KEY_C"), "\(setup.stdout)")
        #expect(setup.stdout.contains("ATTRS{id/vendor}==\"3553\""), "the udev rule: \(setup.stdout)")
        let check = try CLI.run(["check", output])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let profile = try String(contentsOfFile: output, encoding: .utf8)
        #expect(profile.contains("KEY_B: primary") && profile.contains("KEY_C: take.delete-last"))
        // What the profile does with the same presses: the middle pedal records.
        let replay = try CLI.run(["replay", "--profile", output, try presses(in: folder)])
        #expect(replay.stdout.contains("take.toggle"), "\(replay.stdout)")
        // Never over a profile that is there, with --yes.
        let again = try CLI.run(["setup", "--yes", "--replay", try presses(in: folder), "--output", output])
        #expect(again.status == 1 && again.stderr.contains("exists and is kept"), "\(again.stderr)")
    }

    @Test func eachButtonsJobIsAskedForWithoutYes() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "/rig.yaml"
        // Left records, middle does nothing, right exports.
        let setup = try CLI.run(
            ["setup", "--replay", try presses(in: folder), "--output", output], input: "1\n4\n3\n")
        #expect(setup.status == 0, "\(setup.stderr)")
        let profile = try String(contentsOfFile: output, encoding: .utf8)
        #expect(profile.contains("KEY_A: primary") && profile.contains("KEY_C: secondary") && !profile.contains("KEY_B"))
    }
}

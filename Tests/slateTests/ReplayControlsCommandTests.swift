import Foundation
import Testing

/// `slate replay` with a rig's capture controls: the shipped knob session, on
/// the typical webcam replay models, or on a camera saved by `slate controls --json`.
@Suite struct ReplayControlsCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func replay(_ extra: [String]) throws -> [[String: Any]] {
        let result = try CLI.run(
            [
                "replay", "--json", "--profile", Self.root + "/profiles/knob-controls.yaml",
                Self.root + "/recordings/knob-session.yml",
            ]
                + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.filter { $0["type"] as? String == "control" }
    }

    @Test func theKnobSessionZoomsToTheDetentAndPicksOnATypicalWebcam() throws {
        let lines = try replay([])
        let zoom = lines.filter { $0["control"] as? String == "Zoom" && $0["source"] as? String == "knob" }.map {
            $0["text"] as? String ?? ""
        }
        #expect(zoom.prefix(10) == ["1.1×", "1.2×", "1.3×", "1.4×", "1.5×", "1.6×", "1.7×", "1.8×", "1.9×", "2.0×"])
        #expect(zoom.last == "1.5×")
        // Exposure (no bias, automatic exposure) and Temperature (automatic white balance) are skipped.
        let highlighted = lines.first { $0["event"] as? String == "highlighted" }
        #expect(highlighted?["control"] as? String == "Mains" && highlighted?["text"] as? String == "60 Hz")
    }

    @Test func aSavedCameraIsModelledAndABadFileIsNamed() throws {
        let catalog = try CLI.temporaryFile(
            "c920.json",
            #"{"type":"controls","camera":"HD Pro Webcam C920","path":"/dev/video0","controls":["#
                + #"{"id":"0x009a0901","name":"Auto Exposure","key":"auto_exposure","type":"menu","min":0,"max":3,"step":1,"default":3,"value":3,"flags":["update"],"menu":[{"index":1,"name":"Manual Mode"},{"index":3,"name":"Aperture Priority Mode"}]},"#
                + #"{"id":"0x009a0913","name":"Auto Exposure, Bias","key":"auto_exposure_bias","type":"intmenu","min":0,"max":2,"step":1,"default":1,"value":1,"menu":[{"index":0,"name":"-1000"},{"index":1,"name":"0"},{"index":2,"name":"1000"}]}"#
                + "]}\n")
        let lines = try replay(["--camera-controls", catalog])
        let highlighted = lines.first { $0["event"] as? String == "highlighted" }
        #expect(highlighted?["control"] as? String == "Exposure" && highlighted?["text"] as? String == "0.0 EV")

        let bad = try CLI.temporaryFile(
            "bad.json", #"{"type":"controls","camera":"x","path":"/dev/video0","controls":[{"id":"12"}]}"#)
        let result = try CLI.run(
            [
                "replay", "--profile", Self.root + "/profiles/knob-controls.yaml", Self.root + "/recordings/knob-session.yml",
                "--camera-controls", bad,
            ])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(bad + ": error: "), "\(result.stderr)")
    }
}

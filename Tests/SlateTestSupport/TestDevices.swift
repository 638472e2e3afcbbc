import Foundation

/// The test devices of `tests/devices` (its README), which the Python harness
/// reads too: each one `NAME.evemu`, the device as evemu describes it, and
/// `NAME.yaml`, the inputs entry of a profile that matches it.
package struct TestDevice: Sendable {
    /// The PCsensor FootSwitch: `KEY_A` left, `KEY_B` middle, `KEY_C` right.
    package static let footswitch = TestDevice("pcsensor-footswitch")
    /// The footswitch's pedals' key codes.
    package static let left = 0x1e, middle = 0x30, right = 0x2e

    package let name: String

    package init(_ name: String) { self.name = name }

    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("tests/devices").path

    private func read(_ extension: String) -> String {
        (try? String(contentsOfFile: Self.folder + "/\(name).\(`extension`)", encoding: .utf8)) ?? ""
    }

    /// The evemu description (the file's lines before any event), without the
    /// file's comments but its `# EVEMU` line.
    package var evemu: String {
        var lines: [Substring] = []
        for line in read("evemu").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("E:") { break }
            if !line.hasPrefix("#") || line.hasPrefix("# EVEMU") { lines.append(line) }
        }
        return lines.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }

    /// A recording of the device: each press a key `code` pressed at `down`
    /// and released at `up` (seconds); the recording ends at `end`.
    package func session(_ presses: [(code: Int, down: Double, up: Double)], end: Double) -> String {
        var lines = ["E: 0.000000 0000 0000 0"]
        let events = presses.flatMap { [($0.down, $0.code, 1), ($0.up, $0.code, 0)] }.sorted { $0.0 < $1.0 }
        for (time, code, value) in events + [(end, -1, 0)] {
            let seconds = String(format: "%.6f", time)
            if code >= 0 { lines.append("E: \(seconds) 0001 \(String(format: "%04x", code)) \(value)") }
            lines.append("E: \(seconds) 0000 0000 0")
        }
        return evemu + lines.joined(separator: "\n") + "\n"
    }

    /// The device's inputs entry (its YAML without the comments).
    package var entry: String {
        read("yaml").split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n") + "\n"
    }

    /// A profile's `inputs:` section: the device's entry with `bind` (key
    /// names to actions, each as YAML writes it, in the order given) and
    /// `more` (more keys of the entry, such as `    grab: always`).
    package func inputs(_ bind: KeyValuePairs<String, String>, more: String = "") -> String {
        "inputs:\n" + entry.split(separator: "\n").map { "  \($0)\n" }.joined() + "    bind: {"
            + bind.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}\n" + more
    }
}

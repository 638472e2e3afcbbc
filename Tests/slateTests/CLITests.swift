import Foundation
import Glibc
import SlateTestSupport
import Testing

/// Runs the built `slate` binary as a user would.
struct CLI {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("slate")

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    static func run(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input {
            let pipe = Pipe()
            process.standardInput = pipe
            try process.run()
            pipe.fileHandleForWriting.write(Data(input.utf8))
            try pipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
}

@Suite struct CheckCommandTests {
    @Test func shippedProfilesPass() throws {
        let profiles = try FileManager.default.contentsOfDirectory(atPath: CLI.root.appendingPathComponent("profiles").path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "profiles/\($0)" }
        let result = try CLI.run(["check"] + profiles)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == profiles.map { "\($0): ok (\($0.hasSuffix("knob-controls.yaml") ? "2 inputs" : "1 input"))" })
    }

    @Test func everyErrorOfEveryFileIsPrintedAndExitIsTwo() throws {
        let bad = try CLI.temporaryFile(
            "bad.yaml",
            "inputs:\n  p:\n    match: {name: x}\n    bind: {KEY_NOPE: primary, KEY_B: fly}\ncapture: {primary: {click: take.toggle}}\n"
        )
        let result = try CLI.run(["check", "profiles/powermate.yaml", bad, "/nonexistent/rig.yaml"])
        #expect(result.status == 2)
        #expect(result.lines == ["profiles/powermate.yaml: ok (1 input)"])
        #expect(
            result.stderr.split(separator: "\n").map(String.init) == [
                "\(bad):4:12: error: unknown event code 'KEY_NOPE'",
                "\(bad):4:38: error: unknown action or macro 'fly' in KEY_B",
                "/nonexistent/rig.yaml:1:1: error: cannot open: No such file or directory (ENOENT)",
            ])
    }

    @Test func jsonGivesEachFileItsDiagnostics() throws {
        let bad = try CLI.temporaryFile(
            "typo.yaml",
            "inputs:\n  p:\n    match: {name: x}\n    bind: {KEY_B: primary}\n" + "capture: {primary: {click: take.toggel}}\n")
        let result = try CLI.run(["check", "--json", "profiles/powermate.yaml", bad])
        #expect(result.status == 2)
        #expect(
            result.lines == [
                #"{"diagnostics":[],"file":"profiles/powermate.yaml","inputs":1,"ok":true}"#,
                #"{"diagnostics":[{"column":28,"file":"\#(bad)","line":5,"message":"unknown action or macro 'take.toggel' in primary click (did you mean take.toggle?)","severity":"error"}],"file":"\#(bad)","ok":false}"#,
            ])
        #expect(result.stderr == "")
    }

    @Test func withNoFileTheDefaultProfileIsChecked() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-config-\(UUID().uuidString)")
        let missing = try CLI.run(["check"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no profile at \(config.path)/slate/rig.yaml"))
        let missingJSON = try CLI.run(["check", "--json"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(missingJSON.status == 2 && missingJSON.stderr == "")
        #expect(CLI.json(missingJSON.lines.first ?? "")["ok"] as? Bool == false, "\(missingJSON.stdout)")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("slate"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: CLI.root.appendingPathComponent("profiles/powermate.yaml").path,
            toPath: config.appendingPathComponent("slate/rig.yaml").path)
        let found = try CLI.run(["check"], environment: ["XDG_CONFIG_HOME": config.path])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.lines == ["\(config.path)/slate/rig.yaml: ok (1 input)"])
    }
}

@Suite struct ReplayCommandTests {
    static let demo = ["replay", "--profile", "profiles/pcsensor-footswitch.yaml", "recordings/footswitch-session.evemu"]

    @Test func demoSessionAsJSON() throws {
        let result = try CLI.run(Self.demo + ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let objects = result.lines.map(CLI.json)
        let actions = objects.filter { $0["type"] as? String == "action" }
        #expect(
            actions.map { "\($0["action"]!) \($0["result"]!)" } == [
                "take.toggle started take 1", "take.toggle stopped take 1", "take.start started take 2",
                "take.stop stopped take 2", "take.delete-last deleted take 2", "take.toggle started take 2",
                "take.toggle stopped take 2", "takes.export exporting 2 takes",
            ])
        let first = objects[0]
        #expect(first["t"] as? Double == 0)
        #expect(first["type"] as? String == "capture")
        #expect(first["input"] as? String == "pedals")
        #expect(first["code"] as? String == "KEY_B")
        #expect(first["role"] as? String == "primary")
        #expect(first["phase"] as? String == "began")
        let hold = actions[2]
        #expect(hold["gesture"] as? String == "hold")
        #expect(hold["t"] as? Double == 7.000209)
        #expect(objects.last?["t"] as? Double == 19.085399)
        #expect(result.stderr.contains("'PCsensor FootSwitch' is input 'pedals'"))
    }

    /// The words of a text line, as the JSON line with the same report gives them.
    static func words(ofJSON line: String) -> [String] {
        let object = CLI.json(line)
        let field = { (name: String) in object[name] as? String ?? "<no \(name)>" }
        let micros = Int(((object["t"] as? Double ?? .nan) * 1_000_000).rounded())
        let t = "\(micros / 1_000_000).\(String(format: "%03d", micros % 1_000_000 / 1000))"
        switch field("type") {
        case "capture":
            return [t, "capture", field("input"), field("code"), field("role"), field("phase")]
        case "action":
            let role = (object["role"] as? String).map { [$0] } ?? []
            return [t, "action", field("action"), "->"] + field("result").split(separator: " ").map(String.init)
                + ["(" + field("input"), field("code")] + role + [field("gesture") + ")"]
        default:
            return ["a report of type \(field("type"))"]
        }
    }

    @Test func textOutputMatchesJSONOutput() throws {
        let text = try CLI.run(Self.demo).lines
        let json = try CLI.run(Self.demo + ["--json"]).lines
        #expect(text.count == json.count && text.count == 22)
        for (textLine, jsonLine) in zip(text, json) {
            #expect(textLine.split(separator: " ").map(String.init) == Self.words(ofJSON: jsonLine), "\(textLine)\n\(jsonLine)")
        }
    }

    @Test func inactiveReplayOnlyReportsIgnoredPresses() throws {
        let result = try CLI.run(Self.demo + ["--inactive", "--json"])
        #expect(result.status == 0)
        let objects = result.lines.map(CLI.json)
        #expect(objects.count == 7)
        #expect(objects.allSatisfy { $0["type"] as? String == "ignored" && $0["reason"] as? String == "capture inactive" })
        #expect(objects.first?["input"] as? String == "pedals")
        #expect(objects.first?["code"] as? String == "KEY_B")
        let text = try CLI.run(Self.demo + ["--inactive"])
        #expect(text.lines.first == "    0.000  ignored  pedals       KEY_B            capture inactive")
        let quiet = try CLI.run(Self.demo + ["--inactive", "--quiet-ignored"])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty)
    }

    @Test func unmatchedRecordingSaysWhyForEachInput() throws {
        let result = try CLI.run([
            "replay", "--profile", "profiles/powermate.yaml", "recordings/footswitch-session.evemu",
        ])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                """
                no device of the recording matches an input of profiles/powermate.yaml
                  device 'PCsensor FootSwitch' (bus usb, 0x3553:0xb001):
                    input knob: vendor 0x3553 is not 0x077d
                """))
    }

    @Test func malformedRecordingIsAnErrorWithItsLine() throws {
        let broken = try CLI.temporaryFile(
            "broken.evemu", "# EVEMU 1.3\nN: Pedal\nI: 0003 3553 b001 0111\nE: 0.1 0001 zz 1\n")
        let result = try CLI.run(["replay", "--profile", "profiles/pcsensor-footswitch.yaml", broken])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(broken):4: error: "))
        #expect(result.stdout.isEmpty)
    }

    @Test func missingRecordingNamesThePath() throws {
        let result = try CLI.run(["replay", "--profile", "profiles/powermate.yaml", "/nonexistent.evemu"])
        #expect(result.status == 2)
        #expect(result.stderr == "/nonexistent.evemu:1: error: cannot open: No such file or directory (ENOENT)\n")
    }

    @Test func recordingFromStandardInput() throws {
        let recording = try String(
            contentsOf: CLI.root.appendingPathComponent("recordings/footswitch-session.evemu"), encoding: .utf8)
        let result = try CLI.run(["replay", "--profile", "profiles/pcsensor-footswitch.yaml", "-"], input: recording)
        #expect(result.status == 0)
        #expect(result.lines.count == (try CLI.run(Self.demo).lines.count))
    }

    static func fixture(_ name: String) -> String { "Tests/SlateCoreTests/Fixtures/recordings/" + name }

    @Test func warningsGoToStandardErrorAndTheJSONStaysPure() throws {
        let file = Self.fixture("pasted-terminal-echo.evemu")
        let result = try CLI.run(["replay", "--json", "--profile", "profiles/pcsensor-footswitch.yaml", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count >= 3)
        #expect(result.lines.allSatisfy { !CLI.json($0).isEmpty })
        #expect(result.stderr.contains("\(file):49: warning: terminal echo '^[OP' before 'E:' skipped\n"))
        #expect(result.stderr.contains("\(file):74: warning: terminal echo '^C' skipped\n"))
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test func aLineThatCannotBeReadSaysHowToFixIt() throws {
        let pasted = try CLI.temporaryFile(
            "prompt.evemu", "N: Pedal\nI: 0003 3553 b001 0110\npi@rig:~ $ E: 0.000000 0001 0030 1\n")
        let result = try CLI.run(["replay", "--profile", "profiles/pcsensor-footswitch.yaml", pasted])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "\(pasted):3: error: unexpected line 'pi@rig:~ $ E: 0.000000 0001 0030 1': expected a line such as"
                + " 'N:', 'I:', 'B:' or 'E:' (hint: delete the text before 'E:' on this line)\n")
    }

    @Test func aSnippetWithoutItsDeviceIsReplayedWithTheIdentityGiven() throws {
        let snippet = Self.fixture("footswitch-snippet.evemu")
        let refused = try CLI.run(["replay", "--profile", "profiles/pcsensor-footswitch.yaml", snippet])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(snippet):1: warning: no device description ('N:' and 'I:' lines)"))
        #expect(refused.stderr.contains("hint: the recording does not describe its device: give it with --device-name NAME"))
        let given = try CLI.run([
            "replay", "--profile", "profiles/pcsensor-footswitch.yaml", "--device-name", "PCsensor FootSwitch",
            "--device-id", "0003:3553:b001", snippet,
        ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("'PCsensor FootSwitch' is input 'pedals'"))
        let full = try CLI.run([
            "replay", "--profile", "profiles/pcsensor-footswitch.yaml", Self.fixture("pcsensor-footswitch.evemu"),
        ])
        #expect(given.lines == full.lines)
        let bad = try CLI.run(["replay", "--profile", "profiles/pcsensor-footswitch.yaml", "--device-id", "3553:b001", snippet])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("expected BUS:VENDOR:PRODUCT in hexadecimal, such as 0003:3553:b001"))
    }

    @Test func realtimeStartsAtTheFirstPressNotAtAnEmptyFrame() throws {
        let recording = try CLI.temporaryFile(
            "late.evemu", TestDevice.footswitch.session([(TestDevice.middle, 3.0, 3.1)], end: 3.1))
        let start = Date()
        let result = try CLI.run(["replay", "--realtime", "--json", "--profile", "profiles/pcsensor-footswitch.yaml", recording])
        #expect(result.status == 0)
        #expect(Date().timeIntervalSince(start) < 2.5)
        #expect(result.lines.map { CLI.json($0)["t"] as? Double } == [0, 0.1, 0.1])
    }

    @Test func realtimeFollowsTheRecordingsPace() throws {
        let recording = try CLI.temporaryFile(
            "short.evemu", TestDevice.footswitch.session([(TestDevice.middle, 0.000001, 0.400001)], end: 0.400001))
        let start = Date()
        let result = try CLI.run(["replay", "--realtime", "--profile", "profiles/pcsensor-footswitch.yaml", recording])
        #expect(result.status == 0)
        #expect(Date().timeIntervalSince(start) >= 0.4)
        #expect(result.lines.count == 3)
    }
}

@Suite struct CodesCommandTests {
    @Test func namesAreFoundInAnyCaseWithAliasesAndHexValues() throws {
        let lower = try CLI.run(["codes", "key_volume"])
        #expect(lower.status == 0)
        #expect(lower.lines == ["KEY_VOLUMEDOWN 114 0x72", "KEY_VOLUMEUP 115 0x73"])
        let alias = try CLI.run(["codes", "BTN_MISC"])
        #expect(alias.lines == ["BTN_MISC 256 0x100 (alias of BTN_0)"])
        #expect(try CLI.run(["codes", "BTN_0"]).lines == ["BTN_0 256 0x100 (alias: BTN_MISC)"])
    }

    @Test func nothingMatchingIsSaidAndExitsOne() throws {
        let result = try CLI.run(["codes", "volume"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "slate codes: no event code name starts with 'VOLUME'; names containing it: KEY_VOLUMEDOWN, KEY_VOLUMEUP\n")
        let none = try CLI.run(["codes", "KEY_NOPE"])
        #expect(none.status == 1)
        #expect(none.stderr == "slate codes: no event code name starts with 'KEY_NOPE'\n")
    }
}

@Suite struct VersionTests {
    @Test func versionIsPrinted() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.wholeMatch(of: /slate \d+\.\d+\.\d+\n/) != nil, "\(result.stdout)")
    }
}

@Suite struct MonitorCommandTests {
    @Test func withoutDevicesItSaysWhatItWaitsFor() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["monitor", "--json", "--profile", "profiles/pcsensor-footswitch.yaml"]
        process.currentDirectoryURL = CLI.root
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var logged = Data()
        while !String(decoding: logged, as: UTF8.self).contains("waiting for") {
            let chunk = err.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            logged += chunk
        }
        process.interrupt()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        logged += err.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: logged, as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(
            stderr.contains(
                "waiting for pedals (vendor 0x3553, product 0xb001; or vendor 0x1a86, product 0xe026;"
                    + " or vendor 0x0c45, product 0x7403; or vendor 0x0c45, product 0x7404; or vendor 0x413d, product 0x2107)\n"),
            "\(stderr)")
    }
}

@Suite struct TakesCommandTests {
    @Test func listAndDeleteTakesOfAWorkFolder() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-takes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let manifest = """
            {"version": 1, "takes": [
              {"id": "a", "file": "take-a.mp4", "thumbnail": "take-a.jpg", "started": 1795253112000000, "duration": 2.5, "frames": 75, "dropped": 0, "codec": "h264", "recording": false},
              {"id": "b", "file": "take-b.mp4", "thumbnail": null, "started": 1795253120000000, "duration": 1.0, "frames": 30, "dropped": 1, "codec": "hevc", "recording": false}
            ]}
            """
        try manifest.write(to: work.appendingPathComponent("takes.json"), atomically: true, encoding: .utf8)
        for name in ["take-a.mp4", "take-a.jpg", "take-b.mp4"] {
            try Data("x".utf8).write(to: work.appendingPathComponent(name))
        }
        let list = try CLI.run(["takes", "list", "--work", work.path])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.lines == [
                "1  take-a.mp4  2.500 s  75 frames  0 dropped  h264  2026-11-21T09:25:12.000Z",
                "2  take-b.mp4  1.000 s  30 frames  1 dropped  hevc  2026-11-21T09:25:20.000Z",
            ])
        let delete = try CLI.run(["takes", "delete", "1", "--json", "--work", work.path])
        #expect(delete.status == 0, "\(delete.stderr)")
        let deleted = try #require(delete.lines.first.map(CLI.json))
        #expect(deleted["number"] as? Int == 1 && deleted["frames"] as? Int == 75)
        #expect(deleted["path"] as? String == work.appendingPathComponent("take-a.mp4").path)
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("take-a.mp4").path))
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("take-a.jpg").path))
        let json = try CLI.run(["takes", "list", "--json", "--work", work.path]).lines.map(CLI.json)
        #expect(json.count == 1)
        #expect(json.first?["codec"] as? String == "hevc")
        #expect(json.first?["number"] as? Int == 1)
        let missing = try CLI.run(["takes", "delete", "5", "--work", work.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no take 5 in \(work.path) (1 takes)"))
        let plain = try CLI.run(["takes", "delete", "1", "--work", work.path])
        #expect(
            plain.status == 0
                && plain.lines == [
                    "deleted take 1: \(work.appendingPathComponent("take-b.mp4").path) (in the trash for 24 h: slate takes restore take-b.mp4 brings it back)"
                ])
    }
}

@Suite struct TakesExportCommandTests {
    @Test func recordedTakesAreExportedAndKeptOutOfTheList() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-export-\(UUID().uuidString)")
        let work = root.appendingPathComponent("takes"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var entries: [String] = []
        for name in ["take-a", "take-b"] {
            let recorded = try CLI.run([
                "record-pattern", "--size", "320x180", "--fps", "30", "--codec", "h264", "--seconds", "1",
                work.appendingPathComponent(name + ".mp4").path,
            ])
            #expect(recorded.status == 0, "\(recorded.stderr)")
            entries.append(
                "{\"id\": \"\(name)\", \"file\": \"\(name).mp4\", \"thumbnail\": \"\(name).jpg\", \"started\": 1795253112000000, \"codec\": \"h264\"}"
            )
        }
        try "{\"version\": 1, \"takes\": [\(entries.joined(separator: ","))]}".write(
            to: work.appendingPathComponent("takes.json"), atomically: true, encoding: .utf8)
        let export = try CLI.run(["takes", "export", "--json", "--work", work.path, "--output", output.path])
        #expect(export.status == 0, "\(export.stderr)")
        let result = CLI.json(export.stdout)
        #expect(result["takes"] as? Int == 2)
        #expect((result["duration"] as? Double).map { abs($0 - 2.0) < 0.1 } == true)
        #expect(FileManager.default.fileExists(atPath: result["path"] as? String ?? ""))
        // Kept in the work folder, out of the take list: not exported again.
        let kept = try FileManager.default.contentsOfDirectory(atPath: work.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(
            kept == ["take-a.jpg", "take-a.mp4", "take-b.jpg", "take-b.mp4", "takes.json"] && result["kept"] as? Bool == true,
            "\(kept)")
        let list = try CLI.run(["takes", "list", "--work", work.path])
        #expect(
            list.lines.count == 2 && list.lines.allSatisfy { $0.contains("(kept: joined into \(Self.exportPrefix)") },
            "\(list.lines)")
        let again = try CLI.run(["takes", "export", "--work", work.path, "--output", output.path])
        #expect(again.status == 1)
        #expect(again.stderr == "slate takes export: no takes to export in \(work.path)\n")
    }

    /// Exports are named by their rig: without a profile, this machine (`{rig}-{date}-{time}`).
    static let exportPrefix: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        return String(cString: name) + "-"
    }()

    @Test func cleaningUpTrashesTheTakesWhichComeBackAndAnExportNeverReplacesAFile() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-keep-\(UUID().uuidString)")
        let work = root.appendingPathComponent("takes"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try recordTake(in: work)
        let recorded = try Data(contentsOf: work.appendingPathComponent("take-a.mp4"))
        for _ in 0..<2 {
            let export = try CLI.run(["takes", "export", "--clean-up", "--work", work.path, "--output", output.path])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.lines.last == "the takes are in the trash for 24 h (slate takes trash)")
            #expect(try CLI.run(["takes", "list", "--work", work.path]).lines == ["no takes in \(work.path)"])
            let trash = try CLI.run(["takes", "trash", "--work", work.path])
            #expect(
                trash.lines.count == 1 && trash.lines[0].hasPrefix("take-a.mp4")
                    && trash.lines[0].contains("(in \(Self.exportPrefix)"))
            let restored = try CLI.run(["takes", "restore", "take-a.mp4", "--work", work.path])
            #expect(restored.status == 0 && restored.lines == ["restored take 1: \(work.path)/take-a.mp4"], "\(restored)")
            #expect(try Data(contentsOf: work.appendingPathComponent("take-a.mp4")) == recorded)
        }
        let list = try CLI.run(["takes", "list", "--work", work.path])
        #expect(list.lines.count == 1 && list.lines[0].hasPrefix("1  take-a.mp4"))
        let exports = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(
            exports.count == 2 && exports.allSatisfy { $0.hasPrefix(Self.exportPrefix) && $0.hasSuffix(".mp4") }, "\(exports)")
        let missing = try CLI.run(["takes", "restore", "take-z.mp4", "--work", work.path])
        #expect(missing.status == 2 && missing.stderr.contains("no take 'take-z.mp4' in the trash"))
    }

    @Test func aTakeACrashLeftRecordingIsRecoveredByTheTakesCommands() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-recover-\(UUID().uuidString)")
        let work = root.appendingPathComponent("takes")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try recordTake(in: work)
        try
            "{\"version\": 1, \"takes\": [{\"id\": \"a\", \"file\": \"take-a.mp4\", \"started\": 1795253112000000, \"recording\": true}]}"
            .write(to: work.appendingPathComponent("takes.json"), atomically: true, encoding: .utf8)
        let list = try CLI.run(["takes", "list", "--json", "--work", work.path])
        #expect(list.status == 0, "\(list.stderr)")
        let take = CLI.json(list.stdout)
        #expect(take["recording"] as? Bool == false && take["frames"] as? Int == 30, "\(list.stdout)")
        #expect(list.stderr.contains("recovered \(work.path)/take-a.mp4: 30 frames"), "\(list.stderr)")
        let saved = try String(contentsOf: work.appendingPathComponent("takes.json"), encoding: .utf8)
        #expect(saved.contains("\"recording\":false") && saved.contains("\"frames\":30"), "\(saved)")
    }

    @Test func aFolderAnotherProcessHoldsIsNotChangedAndTheHolderIsNamed() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-locked-\(UUID().uuidString)")
        let work = root.appendingPathComponent("takes"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try recordTake(in: work)
        let lock = work.appendingPathComponent(".slate.lock").path
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lock, "sh", "-c", "echo 'slate run (pid 4242)' > '\(lock)'; sleep 30"]
        try holder.run()
        defer { holder.terminate() }
        while (try? String(contentsOfFile: lock, encoding: .utf8))?.isEmpty ?? true { usleep(20_000) }
        for command in [["delete", "1"], ["export", "--output", output.path]] {
            let refused = try CLI.run(["takes"] + command + ["--work", work.path])
            #expect(refused.status == 1)
            #expect(
                refused.stderr.hasPrefix("slate takes \(command[0]): \(work.path) is in use by slate run (pid 4242)"),
                "\(refused.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("take-a.mp4").path))
        let list = try CLI.run(["takes", "list", "--work", work.path])
        #expect(list.status == 0 && list.lines.first?.hasPrefix("1  take-a.mp4") == true)
    }

    @Test func listingAMissingFolderSaysSo() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-missing-\(UUID().uuidString)")
        let list = try CLI.run(["takes", "list", "--work", missing.path])
        #expect(list.status == 1)
        #expect(list.stderr == "slate takes list: \(missing.path): the work folder does not exist\n")
    }

    /// One recorded take in `work`, `take-NAME.mp4`, the only one its takes.json lists.
    func recordTake(in work: URL, name: String = "a") throws {
        let recorded = try CLI.run([
            "record-pattern", "--size", "160x120", "--fps", "30", "--codec", "h264", "--seconds", "1",
            work.appendingPathComponent("take-\(name).mp4").path,
        ])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        try "{\"version\": 1, \"takes\": [{\"id\": \"\(name)\", \"file\": \"take-\(name).mp4\", \"started\": 1795253112000000}]}"
            .write(to: work.appendingPathComponent("takes.json"), atomically: true, encoding: .utf8)
    }

    @Test func theFilterComesFromTheProfileUnlessGivenAndTheMethodIsPrinted() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("slate-cli-filter-\(UUID().uuidString)")
        let work = root.appendingPathComponent("takes"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let profile = root.appendingPathComponent("rig.yaml")
        let base = try String(contentsOf: CLI.root.appendingPathComponent("profiles/volume-keys.yaml"), encoding: .utf8)
        try (base + "\ncamera:\n  work: \(work.path)\n  output: \(output.path)\n  filter: sepia\n  clean-up: true\n").write(
            to: profile, atomically: true, encoding: .utf8)

        try recordTake(in: work)
        let copied = try CLI.run(["takes", "export", "--profile", profile.path, "--filter", "none"])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.lines.contains("joined by stream copy"))
        #expect(copied.lines.last == "the takes are in the trash for 24 h (slate takes trash)")

        try recordTake(in: work, name: "b")
        let filtered = try CLI.run(["takes", "export", "--profile", profile.path, "--json"])
        #expect(filtered.status == 0, "\(filtered.stderr)")
        let result = CLI.json(filtered.stdout)
        #expect(result["method"] as? String == "re-encode")
        #expect(result["reason"] as? String == "the sepia filter is applied")
        #expect(result["encoder"] as? String == "libx264")

        let wrong = try CLI.run(["takes", "export", "--profile", profile.path, "--filter", "blue"])
        #expect(wrong.status != 0 && wrong.stderr.contains("blue"))
    }
}

import Foundation
import Glibc
import SlateTestSupport
import Testing

/// The environment of a program an `exec` action starts in `slate run`: Slate's
/// own, and the SLATE_* variables of the event that ran it, each checked as
/// the program saw it.
@Suite(.serialized) struct ExecEnvironmentTests {
    /// A PowerMate turned by 2 at 0.3 s and pressed at 0.5 s; the recording ends at 1 s.
    static let session = """
        # EVEMU 1.3
        N: Griffin PowerMate
        I: 0003 077d 0410 0100
        E: 0.000000 0000 0000 0
        E: 0.300000 0002 0007 2
        E: 0.300000 0000 0000 0
        E: 0.500000 0001 0100 1
        E: 0.500000 0000 0000 0
        E: 0.550000 0001 0100 0
        E: 0.550000 0000 0000 0
        E: 1.000000 0000 0000 0

        """

    /// The knob's turn and its click (after starting a take) run the macro
    /// `report`, whose program writes its environment to a file of its own in `folder`.
    static func rig(_ folder: String) -> String {
        """
        inputs:
          knob:
            match: [{vendor: 0x077d, product: 0x0410}]
            bind: {BTN_0: primary, REL_DIAL: report}
        capture:
          primary: {click: [take.toggle, report]}
        macros:
          report: [{exec: [sh, -c, 'env > "$(mktemp "$0/env.XXXXXX")"', \(folder)]}]
        camera: {back: [testpattern], fps: 30, codec: [h264], max-size: 320x180}

        """
    }

    static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The environments the programs wrote, once `count` of them did.
    static func environments(in folder: String, count: Int) throws -> [[String: String]] {
        var files: [String] = []
        for _ in 0..<200 where files.count < count {
            files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("env.") }
            if files.count < count { usleep(50_000) }
        }
        return try files.map { file in
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            return Dictionary(
                text.split(separator: "\n").compactMap { line in
                    line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
                }, uniquingKeysWith: { $1 })
        }
    }

    @Test(.timeLimit(.minutes(1))) func aProgramGetsSlatesEnvironmentAndItsEventsVariables() throws {
        let folder = try MediaFiles.folder("exec-environment")
        defer { MediaFiles.remove(folder) }
        try Self.rig(folder).write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        try Self.session.write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        let started = Self.wallClock()
        let err = Pipe()
        // Slate started by a program of another Slate: its event variables are not passed on.
        let (process, out) = try MediaFiles.launchSlate(
            [
                "run", "--json", "--profile", folder + "/rig.yaml", "--replay", folder + "/session.evemu", "--work",
                folder + "/takes", "--output", folder,
            ],
            errors: err, environment: ["SLATE_TEST_INHERITED": "kept", "SLATE_VALUE": "stale", "SLATE_GESTURE": "stale"])
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let ended = Self.wallClock()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let execs = stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }.filter { $0["action"] as? String == "exec" }
        let times = execs.map { ($0["t"] as? NSNumber)?.doubleValue ?? .nan }
        #expect(times.count == 2, "\(stdout)")

        let found = try Self.environments(in: folder, count: 2)
        let turn = try #require(found.first { $0["SLATE_CODE"] == "REL_DIAL" }, "\(found)")
        let click = try #require(found.first { $0["SLATE_CODE"] == "BTN_0" }, "\(found)")
        // Slate's variables, and the test's own, not those this test run inherited (CI's SLATE_REQUIRE_LANES).
        let inherited = ProcessInfo.processInfo.environment
        let slate = { (environment: [String: String]) in
            environment.filter { $0.key.hasPrefix("SLATE_") && inherited[$0.key] == nil }
        }

        #expect(
            slate(turn).keys.sorted() == [
                "SLATE_CODE", "SLATE_INPUT", "SLATE_MACRO", "SLATE_RECORDING", "SLATE_TEST_INHERITED", "SLATE_TIME",
                "SLATE_TIME_REALTIME", "SLATE_VALUE",
            ])
        #expect(turn["SLATE_INPUT"] == "knob" && turn["SLATE_VALUE"] == "2" && turn["SLATE_MACRO"] == "report")
        #expect(turn["SLATE_RECORDING"] == "0")
        #expect(
            slate(click).keys.sorted() == [
                "SLATE_CODE", "SLATE_GESTURE", "SLATE_INPUT", "SLATE_MACRO", "SLATE_RECORDING", "SLATE_ROLE",
                "SLATE_TEST_INHERITED", "SLATE_TIME", "SLATE_TIME_REALTIME",
            ])
        #expect(click["SLATE_INPUT"] == "knob" && click["SLATE_ROLE"] == "primary" && click["SLATE_GESTURE"] == "click")
        #expect(click["SLATE_MACRO"] == "report" && click["SLATE_RECORDING"] == "1", "the take started just before")

        // SLATE_TIME is the action line's t: seconds since the replay started.
        #expect(turn["SLATE_TIME"] == "0.300000" && times.first == 0.3, "\(turn) \(times)")
        #expect(click["SLATE_TIME"] == "0.550000" && times.last == 0.55, "\(click) \(times)")
        // SLATE_TIME_REALTIME is the same moment in Unix seconds.
        for environment in [turn, click] {
            let realtime = try #require(environment["SLATE_TIME_REALTIME"].flatMap(Double.init))
            #expect(started <= realtime && realtime <= ended, "\(started) \(realtime) \(ended)")
            #expect(environment["SLATE_TIME_REALTIME"]?.split(separator: ".").last?.count == 6)
        }
        let origins = [turn, click].map { Double($0["SLATE_TIME_REALTIME"]!)! - Double($0["SLATE_TIME"]!)! }
        #expect(abs(origins[0] - origins[1]) < 0.005, "both times count from the same start: \(origins)")
        // Everything else is Slate's environment.
        #expect(turn["SLATE_TEST_INHERITED"] == "kept" && click["SLATE_TEST_INHERITED"] == "kept")
        #expect(turn["PATH"] == ProcessInfo.processInfo.environment["PATH"])
    }
}

import Foundation
import Glibc
import SlateCore
import SlateMedia
import SlateSystem
import SlateTestSupport
import SystemPackage
import Testing

/// Whether the load tests run (the load lane sets `SLATE_LOAD_TESTS=1`).
let loadTests = ProcessInfo.processInfo.environment["SLATE_LOAD_TESTS"] == "1"

/// `slate run` with the test-pattern camera: takes recorded from a replayed
/// pedal session, deleted and exported; signals; bad start-up situations.
@Suite(.serialized) struct RunCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let demoProfile = root + "/profiles/demo.yaml"

    /// The middle pedal's code (KEY_B) and the right pedal's (KEY_C), which switches the frame rate in `rig`.
    static let middle = TestDevice.middle, right = TestDevice.right

    /// A recording of the footswitch (`tests/devices`): each press is a code
    /// pressed at `down` and released at `up` (seconds); the recording ends at `end`.
    static func footswitch(_ presses: [(code: Int, down: Double, up: Double)], end: Double) -> String {
        TestDevice.footswitch.session(presses, end: end)
    }

    /// The middle pedal pressed at 0.1 s and held for a minute.
    static let heldPedal = footswitch([(middle, 0.1, 60)], end: 60)

    /// A footswitch rig: the middle pedal's click toggles takes, the right pedal
    /// switches the frame rate; `camera` is the camera section's lines.
    static func rig(camera: [String]) -> String {
        TestDevice.footswitch.inputs(["KEY_B": "primary", "KEY_C": "fps.toggle"]) + """
            capture:
              primary: {click: take.toggle}
            camera:

            """ + camera.map { "  " + $0 }.joined(separator: "\n") + "\n"
    }

    struct Run {
        var status: Int32
        var lines: [[String: Any]]
        var stderr: String

        func takes(_ event: String) -> [[String: Any]] {
            lines.filter { $0["type"] as? String == "take" && $0["event"] as? String == event }
        }
    }

    /// Runs `slate run --json` to its end, or until `signal` is sent `after` the first take started.
    static func run(_ arguments: [String], signal: Int32, after: Duration) throws -> Run {
        try run(arguments) { process in
            MonotonicClock.sleep(until: MonotonicClock.now() + after)
            kill(process.processIdentifier, signal)
        }
    }

    /// Runs `slate run --json` to its end (as `MediaFiles.unprivilegedUser`, if
    /// `unprivileged`; with `environment` added to this process's), calling
    /// `whenStarted` once the first take started.
    static func run(
        _ arguments: [String], unprivileged: Bool = false, environment: [String: String] = [:],
        whenStarted: ((Process) throws -> Void)? = nil
    ) throws -> Run {
        let err = Pipe()
        let (process, out) = try MediaFiles.launchSlate(
            ["run", "--json"] + arguments, errors: err, environment: environment, unprivileged: unprivileged)
        var text = ""
        if let whenStarted {
            while !text.contains("\"event\":\"started\"") {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            try whenStarted(process)
        }
        text += String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
        let lines = text.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        return Run(status: status, lines: lines, stderr: stderr)
    }

    /// `slate run --json --replay recording` in this process on virtual time
    /// (`DaemonOnVirtualTime`), takes in `folder`/takes, exports in `folder`.
    static func replay(
        profile: String, recording: String, folder: String, audio: String? = nil, timing: Bool = false
    ) throws -> Run {
        let outcome = try DaemonOnVirtualTime.replay(
            profile: profile, recording: recording, folder: folder, audio: audio, timing: timing)
        return Run(status: outcome.succeeded ? 0 : 1, lines: outcome.lines, stderr: "")
    }

    static func seconds(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    /// A `t` printed to the microsecond, as a whole number of microseconds (0 when missing).
    static func microseconds(_ value: Any?) -> Int64 { Int64((((value as? NSNumber)?.doubleValue ?? 0) * 1_000_000).rounded()) }

    @Test(.timeLimit(.minutes(1))) func aReplayedSessionRecordsDeletesAndExports() throws {
        let folder = try MediaFiles.folder("run-demo")
        defer { MediaFiles.remove(folder) }
        let result = try Self.replay(
            profile: Self.demoProfile, recording: Self.root + "/recordings/demo-session.evemu", folder: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let started = result.takes("started"), stopped = result.takes("stopped")
        #expect(started.count == 3 && stopped.count == 3)
        #expect(result.takes("deleted").count == 1 && result.takes("failed").isEmpty)

        // Each take starts with the first frame captured at or after its button's
        // action. A take's `started` time is its first frame's capture time: the
        // test pattern stamps frame n at n/30 s from its start, so the takes start
        // whole frame intervals apart, and the first frame at or after the action
        // is less than one interval after it. (The shutter lag as a measure is
        // make bench's: tests/vm/bench_shutter.py.)
        let actions = result.lines.filter {
            $0["type"] as? String == "action" && ($0["result"] as? String)?.hasPrefix("started") == true
        }
        #expect(actions.count == 3)
        let frameInterval = 1_000_000.0 / 30
        for take in started.dropFirst() {
            let frames = Double(Self.microseconds(take["t"]) - Self.microseconds(started[0]["t"])) / frameInterval
            #expect(
                abs(frames - frames.rounded()) * frameInterval <= 1, "\(take) is \(frames) frame intervals after \(started[0])")
        }
        for (action, take) in zip(actions, started) {
            let lag = Self.microseconds(take["t"]) - Self.microseconds(action["t"])
            #expect(lag >= 0 && Double(lag) < frameInterval + 1, "take \(take) starts \(lag) µs after its action \(action)")
        }
        // Take 1 is clicked on at 0.1 s and off at 1.7 s.
        #expect(abs(Self.seconds(stopped[0]["duration"]) - 1.6) <= 0.07, "\(stopped[0])")

        let exported = try #require(result.takes("exported").first)
        #expect(exported["takes"] as? Int == 2)
        let path = try #require(exported["path"] as? String)
        let info = try MediaProbe.probe(path: path, decode: true)
        let kept = (stopped[0]["frames"] as? Int ?? 0) + (stopped[2]["frames"] as? Int ?? 0)
        #expect(info.frameCount == kept && info.decodedFrames == kept)

        // Each take's timecode is its first frame's local time of day, in its line, its file and
        // takes.json; the export starts at its first take's.
        for take in started {
            let realtime = try #require(take["realtime_ns"] as? Int64)
            let expected = Timecode(microsecondsOfDay: LocalTime.microsecondsOfDay(realtime / 1000), rate: FrameRate(30))
            #expect(take["timecode"] as? String == expected.description, "\(take)")
        }
        let firstTake = try MediaProbe.probe(path: try #require(stopped[0]["path"] as? String))
        #expect(firstTake.timecode != nil && firstTake.timecode == started[0]["timecode"] as? String)
        #expect(info.timecode == firstTake.timecode, "the export's timecode \(info.timecode ?? "none")")
        // Exported, the takes stay in the work folder, out of the take list (the profile does not
        // clean up); the take deleted is in the trash.
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.filter { $0.kept != nil }.count == 2 && takes.filter { $0.trashed != nil }.count == 1, "\(takes)")
        #expect(takes.map(\.timecode) == started.map { $0["timecode"] as? String })
        #expect(
            FileManager.default.fileExists(atPath: folder + "/takes/trash/" + (takes.first { $0.trashed != nil }?.file ?? "")))
    }

    /// A rig whose left pedal (KEY_A) runs `macro`, the middle one toggles takes.
    static func macroRig(_ macro: String, camera: [String], fps: FrameRate = 30) -> String {
        TestDevice.footswitch.inputs(["KEY_B": "primary", "KEY_A": "again"]) + """
            capture:
              primary: {click: take.toggle}
            macros:
              again: \(macro)
            camera:

            """ + (["back: [testpattern]", "fps: \(fps)", "codec: [h264]"] + camera).map { "  " + $0 }.joined(separator: "\n")
            + "\n"
    }

    static let left = TestDevice.left

    /// Runs `rig` in `folder` on a footswitch session of `presses` ending at `end`, on virtual time
    /// (with `audio`'s sound, e.g. `testtone`).
    static func runSession(
        _ rig: String, _ presses: [(code: Int, down: Double, up: Double)], end: Double, in folder: String,
        audio: String? = nil
    ) throws -> Run {
        try rig.write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        try footswitch(presses, end: end).write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        return try replay(profile: folder + "/rig.yaml", recording: folder + "/session.evemu", folder: folder, audio: audio)
    }

    /// The results of the action lines, in order.
    static func outcomes(_ result: Run) -> [String] {
        result.lines.compactMap { $0["type"] as? String == "action" ? $0["result"] as? String : nil }
    }

    /// In real time (the sound player's thread keeps no virtual time): the line asking for the sound, then one saying it failed.
    @Test(.timeLimit(.minutes(1))) func aSoundThatCannotPlayIsALineThatSaysSo() throws {
        let folder = try MediaFiles.folder("run-sound-failed")
        defer { MediaFiles.remove(folder) }
        let rig =
            Self.macroRig("[sound missing]", camera: ["max-size: 320x180"])
            + "sounds: {files: {missing: \(folder)/no-such-sound.wav}}\n"
        try rig.write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        try Self.footswitch([(Self.left, 0.1, 0.15)], end: 1.5)
            .write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        let result = try Self.run([
            "--profile", folder + "/rig.yaml", "--replay", folder + "/session.evemu", "--work", folder + "/takes",
            "--output", folder,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let sounds = result.lines.filter { $0["type"] as? String == "sound" }
        #expect(sounds.count == 2, "\(sounds)")
        #expect(sounds.first?["event"] == nil && sounds.first?["sound"] as? String == "missing")
        let failed = try #require(sounds.last)
        #expect(failed["event"] as? String == "failed" && failed["sound"] as? String == "missing")
        #expect(failed["file"] as? String == folder + "/no-such-sound.wav")
        #expect((failed["error"] as? String ?? "").contains("No such file or directory"), "\(failed)")
    }

    @Test(.timeLimit(.minutes(1))) func markersAreKeptWithTheirTakesFrameAndTimecode() throws {
        let folder = try MediaFiles.folder("run-mark")
        defer { MediaFiles.remove(folder) }
        let result = try Self.runSession(
            Self.macroRig("[{take.mark: Applause}]", camera: ["max-size: 320x180"]),
            [(Self.middle, 0.1, 0.15), (Self.left, 1.0, 1.05), (Self.left, 1.5, 1.55), (Self.middle, 2.5, 2.55)], end: 3,
            in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let outcomes = Self.outcomes(result)
        #expect(
            outcomes.count == 4 && outcomes[1].hasPrefix("marked take 1 at 0.") && outcomes[1].hasSuffix(" s Applause"),
            "\(outcomes)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        #expect(take.markers.count == 2 && take.markers.allSatisfy { $0.name == "Applause" })
        // At the press's frame: 0.9 and 1.4 s after the first frame, at the first frame after the start's press.
        #expect(take.markers.map(\.at).allSatisfy { $0 > 0.85 && $0 < 1.45 })
        #expect(abs(take.markers[1].at - take.markers[0].at - 0.5) < 0.002, "\(take.markers)")
        for marker in take.markers {
            let timecode = Timecode(
                microsecondsOfDay: LocalTime.microsecondsOfDay(take.started + marker.microseconds), rate: FrameRate(30))
            #expect(marker.timecode == timecode.description)
        }
        #expect(take.fps == 30)
    }

    /// A PAL and an NTSC rig: takes and their export at the profile's rate, exactly (30000/1001, not 30), with
    /// timecode counted at it (dropping frame labels at 29.97).
    @Test(.timeLimit(.minutes(1)), arguments: [FrameRate(25), .ntsc(30)])
    func aRigAtAnyOfferedRateRecordsAndExportsAtItWithItsTimecode(rate: FrameRate) throws {
        let folder = try MediaFiles.folder("run-rate-\(rate.frames)")
        defer { MediaFiles.remove(folder) }
        let result = try Self.runSession(
            Self.macroRig("[takes.export]", camera: ["max-size: 320x180"], fps: rate),
            [
                (Self.middle, 0.1, 0.15), (Self.middle, 1.2, 1.25), (Self.middle, 1.5, 1.55), (Self.middle, 2.5, 2.55),
                (Self.left, 2.8, 2.85),
            ], end: 4, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let started = result.takes("started"), stopped = result.takes("stopped")
        #expect(started.count == 2 && stopped.count == 2)
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 2 && takes.allSatisfy { $0.fps == rate }, "\(takes.map(\.fps))")
        for ((line, end), take) in zip(zip(started, stopped), takes) {
            let realtime = try #require(line["realtime_ns"] as? Int64)
            let expected = Timecode(microsecondsOfDay: LocalTime.microsecondsOfDay(realtime / 1000), rate: rate).description
            #expect(line["timecode"] as? String == expected && take.timecode == expected, "\(line)")
            #expect(expected.contains(";") == rate.dropsFrames)
            let info = try MediaProbe.probe(path: folder + "/takes/" + take.file)
            #expect(info.frameRate == rate && info.timecode == expected, "\(info)")
            // The test pattern's bars are BT.601's numbers, and its takes say so.
            #expect(
                info.color == MediaInfo.Color(primaries: "smpte170m", transfer: "smpte170m", matrix: "smpte170m", range: "tv"))
            // Its length in frames at the rate: its frames are its rate's, not 30 a second.
            #expect(abs(Double(info.frameCount) - rate.value * Self.seconds(end["duration"])) <= 1, "\(end)")
        }
        let exported = try #require(result.takes("exported").first)
        let info = try MediaProbe.probe(path: try #require(exported["path"] as? String), decode: true)
        #expect(info.frameRate == rate && info.timecode == takes[0].timecode, "\(info)")
        #expect(info.decodedFrames == takes.map(\.summary.frames).reduce(0, +))
    }

    /// A camera mounted on its side: the take turned by its display matrix, and its thumbnail turned the same way.
    @Test(.timeLimit(.minutes(1)), arguments: [90, 180, 270])
    func aTurnedCamerasThumbnailIsTurnedAsItsTakeIsShown(orientation: Int) throws {
        let folder = try MediaFiles.folder("run-turned-\(orientation)")
        defer { MediaFiles.remove(folder) }
        let result = try Self.runSession(
            Self.macroRig("[take.mark]", camera: ["max-size: 320x180", "orientation: \(orientation)"]),
            [(Self.middle, 0.1, 0.15), (Self.middle, 1.0, 1.05)], end: 1.5, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let take = try #require(try TakeFolder(path: folder + "/takes", create: false).load().takes.first)
        let video = try MediaProbe.probe(path: folder + "/takes/" + take.file)
        #expect(video.rotation == orientation && video.width == 320 && video.height == 180)
        let thumbnail = try MediaProbe.probe(path: folder + "/takes/" + (take.thumbnail ?? "none"), decode: true)
        let portrait = orientation != 180
        #expect((thumbnail.width, thumbnail.height) == (portrait ? 180 : 320, portrait ? 320 : 180), "\(thumbnail)")
        // The test pattern has a dark band along its bottom under its bars: turned back, the thumbnail has it there.
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: folder + "/takes/" + (take.thumbnail ?? "none")))
        let picture = try #require(
            try MJPEGDecoder().decode(CompressedFrame(data: [UInt8](jpeg), time: Instant(microseconds: 0), isKeyframe: true)))
        let (width, height) = portrait ? (picture.height, picture.width) : (picture.width, picture.height)
        /// The brightness at (`x`, `y`) of the picture as the camera saw it, before it was turned.
        func unturned(_ x: Int, _ y: Int) -> Int {
            let (tx, ty) =
                switch orientation {
                case 90: (height - 1 - y, x)
                case 180: (width - 1 - x, height - 1 - y)
                default: (y, width - 1 - x)
                }
            return Int(picture.y[ty * picture.width + tx])
        }
        // The band's rows are its grey (Y 40) but for the box bouncing across it; no other rows are.
        let rows = height / 12
        let band = (height - rows..<height).flatMap { y in (0..<width).map { unturned($0, y) } }
        let grey = band.filter { abs($0 - 40) <= 12 }.count
        #expect(grey * 100 >= band.count * 85, "\(grey) of the band's \(band.count) pixels are its grey")
        let top = (0..<rows).flatMap { y in (0..<width).map { unturned($0, y) } }
        #expect(top.filter { abs($0 - 40) <= 12 }.count * 100 < top.count * 50, "the top is not the band")
    }

    @Test(.timeLimit(.minutes(1))) func aStopAndStartInOneMacroRecordsBothTakesBackToBack() throws {
        let folder = try MediaFiles.folder("run-restart")
        defer { MediaFiles.remove(folder) }
        let result = try Self.runSession(
            Self.macroRig("[take.stop, take.start]", camera: ["max-size: 320x180"]),
            [(Self.middle, 0.1, 0.15), (Self.left, 1.0, 1.05), (Self.middle, 2.0, 2.05)], end: 2.5, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.outcomes(result) == ["started take 1", "stopped take 1", "started take 2", "stopped take 2"])
        let started = result.takes("started"), stopped = result.takes("stopped")
        #expect(started.map { $0["take"] as? Int } == [1, 2] && stopped.map { $0["take"] as? Int } == [1, 2])
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 2 && takes.allSatisfy { !$0.recording })
        #expect(Set(takes.map(\.id)).count == 2)
        for take in takes {
            #expect(try MediaProbe.probe(path: folder + "/takes/" + take.file).frameCount == take.summary.frames)
        }
        // Back to back: the second take starts with the frame that ended the first.
        let gap = Self.seconds(started[1]["t"]) - (Self.seconds(started[0]["t"]) + Self.seconds(stopped[0]["duration"]))
        #expect(abs(gap) <= 1.0 / 30 + 0.002, "gap \(gap) s")
        #expect(
            abs(Self.seconds(stopped[0]["duration"]) - 0.9) <= 0.07 && abs(Self.seconds(stopped[1]["duration"]) - 1.0) <= 0.07)
    }

    @Test(.timeLimit(.minutes(1))) func aSecondDaemonOnTheSameFolderIsRefusedNamingTheFirst() throws {
        let folder = try MediaFiles.folder("run-two-daemons")
        defer { MediaFiles.remove(folder) }
        let recording = folder + "/held.evemu"
        try Self.heldPedal.write(toFile: recording, atomically: true, encoding: .utf8)
        let arguments = ["--profile", Self.demoProfile, "--replay", recording, "--work", folder + "/takes", "--output", folder]
        let (first, _, _) = try MediaFiles.startSlate(["run", "--json"] + arguments)
        defer {
            first.interrupt()
            first.waitUntilExit()
        }
        let deadline = MonotonicClock.now() + .seconds(10)
        while (try? TakeFolder(path: folder + "/takes", create: false).load().takes.first?.recording) != true,
            MonotonicClock.now() < deadline
        {
            MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(20))
        }
        let second = try Self.run(arguments)
        #expect(second.status == 1)
        #expect(
            second.stderr.contains("slate run: \(folder)/takes is in use by slate run (pid \(first.processIdentifier))"),
            "\(second.stderr)")
        #expect(first.isRunning)
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 1 && takes[0].recording, "the first daemon's take is left as it is")
    }

    @Test(.timeLimit(.minutes(1))) func aPageThatCannotListenEndsRunWithWhy() throws {
        let folder = try MediaFiles.folder("run-page-port-taken")
        defer { MediaFiles.remove(folder) }
        let recording = folder + "/held.evemu"
        try Self.heldPedal.write(toFile: recording, atomically: true, encoding: .utf8)
        // Another program listens on the page's port.
        let taken = try LoopbackSocket(listening: true)
        let port = taken.port
        let run = try Self.run([
            "--profile", Self.demoProfile, "--replay", recording, "--work", folder + "/takes", "--output", folder,
            "--http", "127.0.0.1:\(port)",
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot serve the page on 127.0.0.1:\(port)"), "\(run.stderr)")
        withExtendedLifetime(taken) {}
    }

    @Test(.timeLimit(.minutes(1))) func aProgramsOutputGoesToTheLogNotTheReports() throws {
        let folder = try MediaFiles.folder("run-exec-output")
        defer { MediaFiles.remove(folder) }
        try Self.macroRig("[{exec: [sh, -c, 'echo from-stdout; echo from-stderr >&2']}]", camera: ["max-size: 320x180"])
            .write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        try Self.footswitch([(Self.left, 0.1, 0.15)], end: 0.8)
            .write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        let err = Pipe()
        let (process, out) = try MediaFiles.launchSlate(
            [
                "run", "--json", "--profile", folder + "/rig.yaml", "--replay", folder + "/session.evemu", "--work",
                folder + "/takes", "--output", folder,
            ], errors: err)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        let lines = stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("\"exec\"") }, "\(stdout)")
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(stderr.contains("from-stdout") && stderr.contains("from-stderr"), "\(stderr)")
    }

    @Test(.timeLimit(.minutes(2))) func aTakeRecordsWhileAnExportRuns() throws {
        let folder = try MediaFiles.folder("run-export-while-recording")
        defer { MediaFiles.remove(folder) }
        let result = try Self.runSession(
            Self.macroRig("[takes.export, take.start]", camera: ["max-size: 1280x720", "filter: mono"]),
            [(Self.middle, 0.1, 0.15), (Self.left, 8.1, 8.15), (Self.middle, 11.1, 11.15)], end: 11.5, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.outcomes(result) == ["started take 1", "exporting 1 take", "started take 1", "stopped take 1"])
        let started = result.takes("started"), stopped = result.takes("stopped")
        let exported = try #require(result.takes("exported").first)
        #expect(started.count == 2 && stopped.count == 2 && result.takes("failed").isEmpty, "\(result.lines)")
        // The second take started on time (the click acts on release, at 8.15 s), while the
        // export was still running, and every gap in it is counted.
        #expect(abs(Self.seconds(started[1]["t"]) - 8.15) <= 1.0 / 30 + 0.002, "\(started[1])")
        #expect(Self.seconds(exported["t"]) > Self.seconds(started[1]["t"]), "the export ended before the take started")
        let second = stopped[1]
        #expect(abs(Self.seconds(second["duration"]) - 3.0) <= 0.07, "\(second)")
        let slots = Int((Self.seconds(second["duration"]) * 30).rounded())
        #expect((second["frames"] as? Int ?? 0) + (second["dropped"] as? Int ?? 0) == slots, "\(second)")
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes.filter(\.isExportable)
        #expect(takes.count == 1 && takes[0].summary.frames == second["frames"] as? Int)
        #expect(try MediaProbe.probe(path: folder + "/takes/" + takes[0].file).frameCount == takes[0].summary.frames)
        let path = try #require(exported["path"] as? String)
        #expect(try MediaProbe.probe(path: path).frameCount == stopped[0]["frames"] as? Int)
    }

    /// A take started while a re-encoded export of 40 s of 1080p takes runs
    /// (the export thread at nice 10, sharing the machine's cores): its
    /// `started` line is handled within 100 ms of the click that started it,
    /// it records every frame, the export reports how far it has got as it
    /// goes and its file holds every frame of the take exported. The export
    /// takes about 9 s on two otherwise idle cores; the take starts 0.5 s after
    /// it is asked for and lasts 2.5 s, so the export runs through the take
    /// with three times the time to spare, and the daemon waits for it at the
    /// recording's end. The 40-second take only has to count its frames: a
    /// busy machine may make it drop some, export or not. It runs for about a
    /// minute of real time, so the load lane runs it (`SLATE_LOAD_TESTS=1`),
    /// alone, not `make check`.
    @Test(.enabled(if: loadTests, "a load test of about a minute: make test-load runs it"), .timeLimit(.minutes(5)))
    func aTakeStartsOnTimeAndDropsNothingWhile40SecondsOf1080pAreReencoded() throws {
        let folder = try MediaFiles.folder("run-export-1080p")
        defer { MediaFiles.remove(folder) }
        try Self.macroRig("[takes.export]", camera: ["max-size: 1920x1080", "filter: mono"])
            .write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        // A 40-second take; the export clicked 0.4 s after it stopped, a take 0.5 s after that, 2.5 s long.
        try Self.footswitch(
            [
                (Self.middle, 0.1, 0.15), (Self.middle, 40.1, 40.15), (Self.left, 40.5, 40.55), (Self.middle, 41.0, 41.05),
                (Self.middle, 43.5, 43.55),
            ], end: 44
        ).write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        let result = try Self.run([
            "--profile", folder + "/rig.yaml", "--replay", folder + "/session.evemu", "--work", folder + "/takes",
            "--output", folder, "--timing",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.outcomes(result) == ["started take 1", "stopped take 1", "exporting 1 take", "started take 1", "stopped take 1"])
        let started = result.takes("started"), stopped = result.takes("stopped")
        #expect(started.count == 2 && stopped.count == 2 && result.takes("failed").isEmpty, "\(result.lines)")
        guard started.count == 2, stopped.count == 2 else { return }
        let first = stopped[0], second = stopped[1]
        // Whether each of `take`'s frame slots counts as recorded or dropped.
        func counted(_ take: [String: Any]) -> Bool {
            (take["frames"] as? Int ?? 0) + (take["dropped"] as? Int ?? -1)
                == Int((Self.seconds(take["duration"]) * 30).rounded())
        }
        #expect(counted(first) && first["frames"] as? Int ?? 0 > 0, "\(first)")

        // The take started with the first frame at or after its click, and its line was handled within 100 ms.
        let click = try #require(
            result.lines.last { $0["type"] as? String == "action" && $0["result"] as? String == "started take 1" })
        let lag = Self.seconds(started[1]["t"]) - Self.seconds(click["t"])
        #expect(lag >= 0 && lag < 1.0 / 30 + 0.001, "take \(started[1]) starts \(lag) s after its click \(click)")
        let handled = Self.seconds(started[1]["dispatched"]) - Self.seconds(click["t"])
        print(
            "the take's first frame \(Int(lag * 1000)) ms after its click, its started line handled \(Int(handled * 1000)) ms after it"
        )
        #expect(handled < 0.1, "the started line was handled \(handled) s after the click")

        // Every frame of it was recorded, while the export ran.
        #expect(abs(Self.seconds(second["duration"]) - 2.5) <= 0.07, "\(second)")
        #expect(counted(second) && second["dropped"] as? Int == 0, "\(second)")
        let exported = try #require(result.takes("exported").first)
        #expect(Self.seconds(exported["t"]) > Self.seconds(second["t"]), "the export ended before the take stopped")
        let asked = try #require(
            result.lines.first { $0["type"] as? String == "action" && $0["result"] as? String == "exporting 1 take" })
        print("the export took \(Int((Self.seconds(exported["t"]) - Self.seconds(asked["t"])) * 1000)) ms")
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes.filter(\.isExportable)
        #expect(takes.count == 1 && takes[0].summary.frames == second["frames"] as? Int)

        // The export told how far it had got before it ended, and its file holds the first take's frames.
        let exportedAt = try #require(result.lines.firstIndex { $0["event"] as? String == "exported" })
        let progress = result.lines[..<exportedAt].filter { $0["event"] as? String == "exporting" }
        #expect(!progress.isEmpty, "\(result.lines)")
        let done = progress.map { Self.seconds($0["done"]) }
        #expect(done == done.sorted() && done.allSatisfy { $0 > 0 && $0 < 1 }, "\(progress)")
        #expect(progress.allSatisfy { $0["takes"] as? Int == 1 }, "\(progress)")
        #expect(exported["takes"] as? Int == 1 && exported["frames"] as? Int == first["frames"] as? Int, "\(exported)")
        let info = try MediaProbe.probe(path: try #require(exported["path"] as? String), decode: true)
        #expect(info.width == 1920 && info.height == 1080)
        #expect(info.frameCount == first["frames"] as? Int && info.decodedFrames == info.frameCount)
    }

    @Test(.timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func aSignalStopsTheTakeInProgressAndExitsZero(signal: Int32) throws {
        let folder = try MediaFiles.folder("run-signal-\(signal)")
        defer { MediaFiles.remove(folder) }
        let recording = folder + "/held.evemu"
        try Self.heldPedal.write(toFile: recording, atomically: true, encoding: .utf8)
        let result = try Self.run(
            ["--profile", Self.demoProfile, "--replay", recording, "--work", folder + "/takes", "--output", folder],
            signal: signal, after: .milliseconds(1500))
        #expect(result.status == 0, "\(result.stderr)")
        let stopped = try #require(result.takes("stopped").first)
        let path = try #require(stopped["path"] as? String)
        let info = try MediaProbe.probe(path: path, decode: true)
        #expect(info.durationMicroseconds >= 1_400_000 && info.decodedFrames == info.frameCount)
        let manifest = try TakeFolder(path: folder + "/takes", create: false).load()
        #expect(manifest.takes.count == 1 && manifest.takes.first?.recording == false)
        #expect(manifest.takes.first?.summary.frames == info.frameCount)
    }

    @Test(.timeLimit(.minutes(1))) func aKilledTakeIsRecoveredWhenSlateStartsAgain() throws {
        let folder = try MediaFiles.folder("run-kill")
        defer { MediaFiles.remove(folder) }
        let recording = folder + "/held.evemu"
        try Self.heldPedal.write(toFile: recording, atomically: true, encoding: .utf8)
        let killed = try Self.run(
            ["--profile", Self.demoProfile, "--replay", recording, "--work", folder + "/takes", "--output", folder],
            signal: SIGKILL, after: .milliseconds(2500))
        #expect(killed.status == -SIGKILL)
        #expect(try TakeFolder(path: folder + "/takes", create: false).load().takes.first?.recording == true)

        // Started again (the pedal held again, then SIGTERM): the killed take is listed as finished.
        let again = try Self.run(
            ["--profile", Self.demoProfile, "--replay", recording, "--work", folder + "/takes", "--output", folder],
            signal: SIGTERM, after: .milliseconds(200))
        #expect(again.status == 0)
        #expect(again.stderr.contains("recovered "), "\(again.stderr)")
        let takes = try TakeFolder(path: folder + "/takes", create: false).load().takes
        #expect(takes.count == 2 && takes.allSatisfy { !$0.recording })
        // At most one fragment (a second) lost; its timecode track came with the first.
        #expect(takes[0].summary.duration >= .milliseconds(1400), "\(takes[0])")
        let killedTake = try MediaProbe.probe(path: folder + "/takes/" + takes[0].file)
        #expect(killedTake.timecode != nil && killedTake.timecode == takes[0].timecode)
    }

    @Test func aMissingCameraIsAnErrorListingTheCandidates() throws {
        let folder = try MediaFiles.folder("run-nocamera")
        defer { MediaFiles.remove(folder) }
        let result = try Self.run([
            "--profile", Self.demoProfile, "--camera", folder + "/video9", "--work", folder, "--output", folder,
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no back camera: none of \(folder)/video9 is present"), "\(result.stderr)")
        #expect(result.stderr.contains("--camera testpattern runs the rig on the test pattern"), "\(result.stderr)")
    }

    @Test(.timeLimit(.minutes(1))) func aRigThatWaitsForItsCameraKeepsRunning() throws {
        let folder = try MediaFiles.folder("run-wait")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [\(folder)/video9]", "wait-for-camera: true"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let err = Pipe()
        let (process, _) = try MediaFiles.launchSlate(
            ["run", "--profile", profile, "--work", folder + "/takes", "--output", folder], errors: err)
        MonotonicClock.sleep(until: MonotonicClock.now() + .milliseconds(2500))
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(log.contains("none of \(folder)/video9 is present") && log.contains("waiting for it"), "\(log)")
    }

    @Test func anUnwritableFolderIsAnErrorAtStart() throws {
        let result = try Self.run(["--profile", Self.demoProfile, "--work", "/proc/slate-takes"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/proc/slate-takes"), "\(result.stderr)")
    }

    /// SIGHUP with an invalid profile: its errors are reported with their
    /// lines and Slate goes on. (A reloaded profile taking effect, and an invalid
    /// one leaving the loaded one in effect, need live inputs: tests/vm/run_reload.py.)
    @Test(.timeLimit(.minutes(1))) func sighupWithAnInvalidProfileReportsItsErrorsAndGoesOn() throws {
        let folder = try MediaFiles.folder("run-reload")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        let text = try String(contentsOfFile: Self.demoProfile, encoding: .utf8)
        try text.write(toFile: profile, atomically: true, encoding: .utf8)
        let err = Pipe()
        let (process, _) = try MediaFiles.launchSlate(
            ["run", "--profile", profile, "--work", folder + "/takes", "--output", folder], errors: err)
        var log = ""
        func read(until marker: String) {
            while !log.contains(marker) {
                let data = err.fileHandleForReading.availableData
                if data.isEmpty { return }
                log += String(decoding: data, as: UTF8.self)
            }
        }
        read(until: "recording testpattern")
        try text.replacingOccurrences(of: "  fps: 30\n", with: "  fps: fast\n").write(
            toFile: profile, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        read(until: "keeping the profile")
        #expect(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        log += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(log)")
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex(of: "  fps: 30")) + 1
        #expect(
            log.contains("\(profile):\(line):8: error: fps must be 23.976, 24, 25, 29.97, 30, 48, 50, 59.94 or 60, not 'fast'"),
            "\(log)")
        #expect(log.contains("\(profile) is not valid; keeping the profile loaded before"), "\(log)")
    }

    /// A footswitch rig: the middle pedal's click toggles takes, the left pedal
    /// moves to the next export filter, the right one exports.
    static let filterRig =
        TestDevice.footswitch.inputs(["KEY_B": "primary", "KEY_A": "filter.next", "KEY_C": "takes.export"]) + """
            capture:
              primary: {click: take.toggle}
            camera:
              back: [testpattern]
              fps: 30
              max-size: 320x180
              codec: [h264]

            """

    @Test(.timeLimit(.minutes(1))) func filterNextCyclesTheFilterOfTheNextExport() throws {
        let folder = try MediaFiles.folder("run-filter-next")
        defer { MediaFiles.remove(folder) }
        // Three times: a take, the next filter, an export.
        let presses = (0..<3).flatMap { round -> [(code: Int, down: Double, up: Double)] in
            let at = 0.1 + Double(round) * 1.5
            return [
                (Self.middle, at, at + 0.05), (Self.middle, at + 0.5, at + 0.55), (Self.left, at + 0.8, at + 0.85),
                (Self.right, at + 1.1, at + 1.15),
            ]
        }
        let result = try Self.runSession(Self.filterRig, presses, end: 4.8, in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let round = { (filter: String) in ["started take 1", "stopped take 1", "filter \(filter)", "exporting 1 take"] }
        #expect(Self.outcomes(result) == round("mono") + round("sepia") + round("none"))
        let methods = result.takes("exported").map { $0["message"] as? String ?? "" }
        #expect(
            methods == [
                "re-encode (the mono filter is applied) with libx264", "re-encode (the sepia filter is applied) with libx264",
                "stream copy",
            ], "\(result.lines)")
        #expect(result.takes("failed").isEmpty, "\(result.lines)")
    }

    /// Runs `slate` with `arguments` to its end (as `MediaFiles.unprivilegedUser`,
    /// if `unprivileged`): its exit status, standard output and standard error.
    static func slate(_ arguments: [String], unprivileged: Bool = false) throws -> (status: Int32, stdout: String, stderr: String)
    {
        let err = Pipe()
        let (process, out) = try MediaFiles.launchSlate(arguments, errors: err, unprivileged: unprivileged)
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    @Test(.timeLimit(.minutes(2))) func anUnwritableOutputFolderIsAnErrorNamingItAndNoTakeIsLost() throws {
        let folder = try MediaFiles.folder("run-unwritable-output")
        defer { MediaFiles.remove(folder) }
        let work = folder + "/takes", output = folder + "/exports"
        try FileManager.default.createDirectory(
            atPath: output, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        for path in [folder, output] { try MediaFiles.giveToUnprivilegedUser(path) }
        try Self.filterRig.write(toFile: folder + "/rig.yaml", atomically: true, encoding: .utf8)
        try Self.footswitch(
            [
                (Self.middle, 0.1, 0.15), (Self.middle, 0.6, 0.65), (Self.middle, 0.9, 0.95), (Self.middle, 1.4, 1.45),
                (Self.right, 2.0, 2.05),
            ], end: 2.5
        ).write(toFile: folder + "/session.evemu", atomically: true, encoding: .utf8)
        let arguments = [
            "--profile", folder + "/rig.yaml", "--replay", folder + "/session.evemu", "--work", work, "--output", output,
        ]

        // The folder can no longer be written once the first take started: the
        // export fails naming it, and every take stays in the work folder.
        let result = try Self.run(arguments, unprivileged: true) { _ in
            guard chmod(output, 0o555) == 0 else {
                throw SystemCallError("chmod", subject: output, errno: Errno(rawValue: errno))
            }
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            Self.outcomes(result) == [
                "started take 1", "stopped take 1", "started take 2", "stopped take 2", "exporting 2 takes",
            ])
        let failures = result.takes("failed").map { $0["message"] as? String ?? "" }
        #expect(
            failures.count == 1
                && failures.allSatisfy {
                    $0.hasPrefix("export: \(output)/")
                        && $0.hasSuffix(": cannot create: openat: Permission denied (EACCES); the takes are kept")
                }, "\(failures)")
        // The takes as their user lists them (the work folder is that user's alone).
        func listed() throws -> String {
            let list = try Self.slate(["takes", "list", "--work", work, "--json"], unprivileged: true)
            #expect(list.status == 0, "\(list.stderr)")
            return list.stdout
        }
        let kept = try listed()
        let takes = kept.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        #expect(
            takes.map { $0["frames"] as? Int } == result.takes("stopped").map { $0["frames"] as? Int } && takes.count == 2,
            "\(kept)")
        let files = takes.map { $0["path"] as? String ?? "" }
        #expect(takes.allSatisfy { $0["recording"] as? Bool == false } && files.allSatisfy(FileManager.default.fileExists))

        // Started with it unwritable: an error naming it, before anything is recorded.
        let refused = try Self.run(arguments, unprivileged: true)
        #expect(refused.status == 1 && refused.takes("started").isEmpty)
        #expect(
            refused.stderr == "slate run: \(output): cannot write to the folder: faccessat: Permission denied (EACCES)\n",
            "\(refused.stderr)")
        #expect(try listed() == kept)

        // slate takes export into it: an error naming it, the takes kept.
        let export = try Self.slate(["takes", "export", "--work", work, "--output", output], unprivileged: true)
        #expect(export.status == 1)
        #expect(
            export.stderr
                == "slate takes export: \(output): cannot write to the folder: faccessat: Permission denied (EACCES); the takes are kept\n"
        )
        #expect(try listed() == kept && files.allSatisfy(FileManager.default.fileExists))

        // Writable again: every take is exported, every frame of them.
        #expect(chmod(output, 0o755) == 0)
        let exported = try Self.slate(["takes", "export", "--work", work, "--output", output, "--json"], unprivileged: true)
        #expect(exported.status == 0, "\(exported.stderr)")
        let outcome = (try? JSONSerialization.jsonObject(with: Data(exported.stdout.utf8))) as? [String: Any] ?? [:]
        let frames = takes.reduce(0) { $0 + ($1["frames"] as? Int ?? 0) }
        #expect(outcome["takes"] as? Int == 2 && outcome["frames"] as? Int == frames, "\(exported.stdout)")
    }

    @Test(.timeLimit(.minutes(1))) func switchingTheFrameRateWhileRecordingSplitsTheTake() throws {
        let folder = try MediaFiles.folder("run-fps")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let recording = folder + "/session.evemu"
        try Self.footswitch([(Self.middle, 0.1, 0.2), (Self.right, 1.2, 1.3), (Self.middle, 2.5, 2.6)], end: 2.8)
            .write(toFile: recording, atomically: true, encoding: .utf8)
        let result = try Self.replay(profile: profile, recording: recording, folder: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let stopped = result.takes("stopped")
        #expect(result.takes("started").count == 2 && stopped.count == 2, "\(result.lines)")
        #expect(result.lines.contains { $0["action"] as? String == "fps.toggle" && $0["result"] as? String == "60 fps" })
        let rates = try stopped.map { take -> Double in
            let path = try #require(take["path"] as? String)
            let info = try MediaProbe.probe(path: path)
            return Double(info.frameCount) / info.seconds
        }
        #expect(rates.count == 2 && abs(rates[0] - 30) < 2 && abs(rates[1] - 60) < 4, "\(rates)")
        // The first take runs from the click (0.1 s) to the switch (at its release, 1.2 s), the second from there to 2.5 s.
        #expect(abs(Self.seconds(stopped[0]["duration"]) - 1.1) < 0.07 && abs(Self.seconds(stopped[1]["duration"]) - 1.3) < 0.1)
    }

    @Test(.timeLimit(.minutes(1))) func prerollStartsTheTakeAtTheKeyframeBeforePressMinusPreroll() throws {
        let folder = try MediaFiles.folder("run-preroll")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]", "preroll: 1s"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let recording = folder + "/session.evemu"
        try Self.footswitch([(Self.middle, 3.0, 3.1), (Self.middle, 4.0, 4.1)], end: 4.3)
            .write(toFile: recording, atomically: true, encoding: .utf8)
        let result = try Self.replay(profile: profile, recording: recording, folder: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let action = try #require(result.lines.first { ($0["result"] as? String)?.hasPrefix("started") == true })
        let started = try #require(result.takes("started").first)
        let stopped = try #require(result.takes("stopped").first)
        // Keyframes come every second: the take starts 1 to 2 s before the press.
        let lead = Self.seconds(action["t"]) - Self.seconds(started["t"])
        #expect(lead >= 1.0 && lead <= 2.0 + 1.0 / 30, "pre-roll \(lead) s")
        #expect(abs(Self.seconds(stopped["duration"]) - (1.0 + lead)) < 0.07, "\(stopped)")
        let info = try MediaProbe.probe(path: try #require(stopped["path"] as? String), decode: true)
        #expect(info.frameCount == stopped["frames"] as? Int && info.decodedFrames == info.frameCount)
    }

    /// A sound device that is not there: an error naming it and listing the
    /// capture devices present, unless the profile calls it optional, when
    /// takes are recorded picture only with a warning.
    @Test(.timeLimit(.minutes(1))) func aMissingSoundDeviceIsAnErrorUnlessOptional() throws {
        let folder = try MediaFiles.folder("run-missing-sound")
        defer { MediaFiles.remove(folder) }
        let recording = folder + "/session.evemu"
        try Self.footswitch([(Self.middle, 0.5, 0.6), (Self.middle, 1.5, 1.6)], end: 1.8)
            .write(toFile: recording, atomically: true, encoding: .utf8)
        let camera = ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]"]
        for optional in [false, true] {
            let profile = folder + "/rig-\(optional).yaml"
            try (Self.rig(camera: camera) + "audio: {device: \"hw:CARD=NoSuchCard,DEV=0\", optional: \(optional)}\n")
                .write(toFile: profile, atomically: true, encoding: .utf8)
            let result = try Self.run([
                "--profile", profile, "--replay", recording, "--work", folder + "/takes-\(optional)", "--output", folder,
            ])
            #expect(result.stderr.contains("no capture device 'hw:CARD=NoSuchCard,DEV=0'"), "\(result.stderr)")
            if optional {
                #expect(result.status == 0 && result.stderr.contains("takes are recorded without sound"))
                let stopped = try #require(result.takes("stopped").first)
                #expect(stopped["sound"] == nil && (stopped["frames"] as? Int ?? 0) > 20)
            } else {
                #expect(result.status == 1 && result.takes("started").isEmpty)
            }
        }
    }

    /// `--audio testtone` gives every take a sound as long as its picture, reported in its `stopped` line.
    @Test(.timeLimit(.minutes(1))) func takesRecordTheSoundOfAudio() throws {
        let folder = try MediaFiles.folder("run-sound")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let recording = folder + "/session.evemu"
        try Self.footswitch([(Self.middle, 0.5, 0.6), (Self.middle, 2.0, 2.1)], end: 2.3)
            .write(toFile: recording, atomically: true, encoding: .utf8)
        let result = try Self.replay(profile: profile, recording: recording, folder: folder, audio: "testtone")
        #expect(result.status == 0, "\(result.stderr)")
        let stopped = try #require(result.takes("stopped").first)
        let sound = try #require(stopped["sound"] as? [String: Any])
        #expect(abs(Self.seconds(sound["duration"]) - Self.seconds(stopped["duration"])) < 0.001, "\(stopped)")
        #expect(sound["clipped"] as? Int == 0 && sound["overruns"] as? Int == 0)
        let info = try MediaProbe.probe(path: try #require(stopped["path"] as? String))
        #expect(info.sound?.codec == "aac" && info.sound?.format == AudioFormat(rate: 48000, channels: 2))
    }

    /// The fault library of the torture tests (tests/faults/slate-faults.c), built into `folder`.
    static func faultLibrary(in folder: String) throws -> String {
        let library = folder + "/libslate-faults.so"
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-O2", "-o", library, root + "/tests/faults/slate-faults.c", "-ldl"]
        try compiler.run()
        compiler.waitUntilExit()
        try #require(compiler.terminationStatus == 0, "cc could not build the fault library")
        return library
    }

    /// The event loop's wait (epoll_wait) failing, through the fault library,
    /// ends slate run with status 1 and a message naming the call and its
    /// errno; a wait that a signal interrupts (EINTR) is only waited again.
    @Test(.timeLimit(.minutes(1))) func aFailingEventLoopEndsRunWithStatusOneNamingTheCall() throws {
        let folder = try MediaFiles.folder("run-loop-fails")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let recording = folder + "/session.evemu"
        try Self.footswitch([(Self.middle, 0.1, 0.2), (Self.middle, 0.6, 0.7)], end: 0.8)
            .write(toFile: recording, atomically: true, encoding: .utf8)
        let library = try Self.faultLibrary(in: folder)
        let arguments = ["--profile", profile, "--replay", recording, "--work", folder + "/takes", "--output", folder]

        let failed = try Self.run(arguments, environment: ["LD_PRELOAD": library, "SLATE_FAULTS": "epoll_wait:1:EINVAL"])
        #expect(failed.status == 1, "\(failed.stderr)")
        #expect(
            failed.stderr.hasSuffix("slate run: cannot wait for events: epoll_wait: Invalid argument (EINVAL)\n"),
            "\(failed.stderr)")
        #expect(failed.takes("started").isEmpty, "\(failed.lines)")

        let interrupted = try Self.run(arguments, environment: ["LD_PRELOAD": library, "SLATE_FAULTS": "epoll_wait:*:EINTR"])
        #expect(interrupted.status == 0, "\(interrupted.stderr)")
        #expect(interrupted.takes("stopped").count == 1 && interrupted.takes("failed").isEmpty, "\(interrupted.lines)")
    }

    /// A switch of frame rate whose camera is slow to open (every opendir of
    /// /dev waits 100 ms, through the fault library) does not hold up input:
    /// the report of a press 5 ms after the switch (KEY_A, bound to nothing)
    /// is handled within a few milliseconds, while the take the switch split
    /// goes on only once the camera streams again.
    @Test(.timeLimit(.minutes(1))) func aSlowCameraSwitchDoesNotHoldUpTheNextPress() throws {
        let folder = try MediaFiles.folder("run-slow-switch")
        defer { MediaFiles.remove(folder) }
        let profile = folder + "/rig.yaml"
        try Self.rig(camera: ["back: [testpattern]", "fps: 30", "max-size: 320x180", "codec: [h264]"])
            .write(toFile: profile, atomically: true, encoding: .utf8)
        let recording = folder + "/session.evemu"
        try Self.footswitch(
            [(Self.middle, 0.1, 0.2), (Self.right, 1.0, 1.1), (Self.left, 1.105, 1.2), (Self.middle, 2.0, 2.1)], end: 2.4
        ).write(toFile: recording, atomically: true, encoding: .utf8)
        let library = try Self.faultLibrary(in: folder)
        let result = try Self.run(
            [
                "--profile", profile, "--replay", recording, "--work", folder + "/takes", "--output", folder, "--timing",
            ], environment: ["LD_PRELOAD": library, "SLATE_FAULTS": "opendir:*:slow", "SLATE_FAULTS_PATH": "/dev"])
        #expect(result.status == 0, "\(result.stderr)")
        let press = try #require(
            result.lines.first { $0["type"] as? String == "ignored" && $0["code"] as? String == "KEY_A" },
            "\(result.lines)")
        let delay = Self.seconds(press["dispatched"]) - Self.seconds(press["t"])
        #expect(delay < 0.03, "the press 5 ms after the switch was handled \(delay) s late")
        let started = result.takes("started")
        #expect(started.count == 2 && result.takes("stopped").count == 2, "\(result.lines)")
        if started.count == 2 {
            #expect(Self.seconds(started[1]["t"]) >= 1.2, "the camera reopened at once: \(started[1])")
        }
    }
}

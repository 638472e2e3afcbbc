import ArgumentParser
import Logging
import SlateCore
import SlateLinux

/// `slate replay`: runs an input recording through a profile.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay an evemu or libinput recording through a profile and print what the rig would do.",
        discussion: """
            Capture events, actions, sounds and ignored presses (with the reason) are printed \
            one per line, with t in seconds from the recording's first event. The replay runs in virtual time (as fast as \
            possible) unless --realtime. exec actions are shown, not run.
            """)

    @Option(help: "The rig's profile.")
    var profile: String

    @Argument(help: "An evemu-record or libinput record file (- for standard input).")
    var recording: String

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "Play the recording at its own pace.")
    var realtime = false

    @Flag(help: "Start with capture inactive: buttons do nothing.")
    var inactive = false

    @Flag(help: "Do not print presses that did nothing (ignored lines).")
    var quietIgnored = false

    func run() throws {
        Slate.bootstrapLogging()
        let log = Logger(label: "slate.replay")
        let loaded = try ProfileSource.loadOrExit(profile)
        let parsed = try Self.loadOrExit(recording)
        let replay: SlateCore.Replay
        do {
            replay = try SlateCore.Replay(
                profile: loaded, timeline: Timeline(recording: parsed), recorder: RecorderModel(camera: loaded.camera),
                captureActive: !inactive)
        } catch {
            OutputStream.writeError("\(recording): error: \(error)")
            throw Slate.badInput
        }
        for device in parsed.devices {
            if let input = loaded.inputIndex(matching: device.identity) {
                log.info("'\(device.identity.name)' is input '\(loaded.inputs[input].name)'")
            } else {
                log.warning("'\(device.identity.name)' matches no input; its events are ignored")
            }
        }
        let printer = ReportPrinter(
            format: ReportFormat(origin: replay.origin), json: json, runsPrograms: false, log: log,
            showsIgnored: !quietIgnored)
        let wallStart = MonotonicClock.now()
        while let next = replay.nextTime {
            if realtime {
                MonotonicClock.sleep(until: wallStart + (next - replay.origin))
            }
            replay.advance(to: next)
            printer.print(replay.rig.reports)
            replay.rig.reports.removeAll(keepingCapacity: true)
            if realtime { printer.output.flush() }
            if printer.output.closed { break }
        }
        printer.output.flush()
    }

    /// The recording at `path` (- for standard input); a bad one is reported and exits 2.
    static func loadOrExit(_ path: String) throws -> Recording {
        do {
            let bytes = try FileReading.bytes(atPath: path)
            return try Recording.parse(utf8: bytes, file: path)
        } catch let error as SystemError {
            OutputStream.writeError("\(path):1: error: \(error.description.dropFirst(path.count + 2))")
            throw Slate.badInput
        } catch {
            OutputStream.writeError("\(error)")
            throw Slate.badInput
        }
    }
}

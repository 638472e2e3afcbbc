import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate replay`: runs an input recording through a profile.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay an evemu or libinput recording through a profile and print what the rig would do.",
        discussion: """
            Capture events, actions, sounds and ignored presses (with the reason) are printed \
            one per line, with t in seconds from the recording's first event. What the \
            recording's parser read past (terminal echo, a file that ends early, ...) is a \
            FILE:LINE: warning on standard error. The replay runs in virtual time (as fast as \
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

    @Option(help: "The device's name, for a recording without its description (only 'E:' lines).")
    var deviceName: String?

    @Option(
        help: ArgumentHelp(
            "The device's ids, for a recording without its description: hex as evemu's 'I:' line gives them.",
            valueName: "bus:vendor:product"))
    var deviceID: String?

    @Option(
        help: ArgumentHelp(
            "The camera whose controls the rig's controls drive, as `slate controls --json` saved it (default: a typical webcam's).",
            valueName: "file"))
    var cameraControls: String?

    func validate() throws {
        if let deviceID, DeviceIDs(parsing: deviceID) == nil {
            throw ValidationError(
                "--device-id '\(deviceID)': expected BUS:VENDOR:PRODUCT in hexadecimal, such as 0003:3553:b001")
        }
    }

    @OptionGroup var logging: LogOptions

    func run() throws {
        Slate.bootstrapLogging(logging.logLevel)
        let log = Logger(label: "slate.replay")
        let loaded = try ProfileSource.loadOrExit(profile)
        let camera = try cameraControls.map(Self.loadCatalogOrExit)?.controls ?? ModelledCamera.typicalWebcam
        var parsed = try Self.loadOrExit(recording)
        if deviceName != nil || deviceID != nil {
            let (described, count) = parsed.describing(name: deviceName, ids: deviceID.flatMap(DeviceIDs.init(parsing:)))
            if count == 0 {
                OutputStream.writeError(
                    "\(recording): warning: the recording describes its device: --device-name and --device-id are not used")
            }
            parsed = described
        }
        let replay: Replay
        do {
            replay = try Replay(
                profile: loaded, timeline: Timeline(recording: parsed), book: RigBook(camera: loaded.camera),
                captureActive: !inactive, camera: ModelledCamera(controls: camera))
        } catch {
            var message = "\(recording): error: \(error)"
            if parsed.devices.contains(where: { !$0.described.isSuperset(of: [.name, .ids]) }) {
                message +=
                    "\n  hint: the recording does not describe its device: give it with"
                    + " --device-name NAME --device-id BUS:VENDOR:PRODUCT (such as 0003:3553:b001)"
            }
            OutputStream.writeError(message)
            throw Slate.badInput
        }
        for device in parsed.devices {
            let name = device.identity.name.isEmpty ? "the unnamed device" : "'\(device.identity.name)'"
            if let input = loaded.inputIndex(matching: device.identity) {
                log.info("\(name) is input '\(loaded.inputs[input].name)'")
            } else {
                log.warning("\(name) matches no input; its events are ignored")
            }
        }
        let printer = ReportPrinter(
            format: ReportFormat(origin: replay.origin), json: json, showsIgnored: !quietIgnored)
        let wallStart = MonotonicClock.now()
        while let next = replay.nextDeadline {
            if realtime {
                MonotonicClock.sleep(until: wallStart + (next - replay.origin))
            }
            replay.advance(to: next)
            for case .report(let report) in replay.driver.effects { printer.print(report) }
            replay.driver.effects.removeAll(keepingCapacity: true)
            if realtime { printer.output.flush() }
            if printer.output.closed { break }
        }
        printer.output.flush()
    }

    /// The camera's controls saved at `path`; a bad file is reported and exits 2.
    static func loadCatalogOrExit(_ path: String) throws -> ControlCatalog {
        let bytes: [UInt8]
        do {
            bytes = try FileReading.bytes(atPath: path)
        } catch {
            OutputStream.writeError("\(path): error: \(error.reason)")
            throw Slate.badInput
        }
        switch ControlCatalog.parse(String(decoding: bytes, as: UTF8.self), file: path) {
        case .success(let catalog): return catalog
        case .failure(let error):
            OutputStream.writeError("\(error)")
            throw Slate.badInput
        }
    }

    /// The recording at `path` (- for standard input), its warnings printed; a
    /// bad one is reported and exits 2.
    static func loadOrExit(_ path: String) throws -> InputRecording {
        do {
            let bytes = try FileReading.bytes(atPath: path)
            let recording = try InputRecording.parse(utf8: bytes, file: path)
            recording.warnings.forEach { OutputStream.writeError($0.description) }
            return recording
        } catch let error as OperationError {
            OutputStream.writeError("\(path):1: error: \(error.reason)")
            throw Slate.badInput
        } catch {
            OutputStream.writeError("\(error)")
            throw Slate.badInput
        }
    }
}

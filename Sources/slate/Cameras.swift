import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

/// `slate cameras`: the V4L2 capture devices, their modes and controls, and the mode Slate would pick.
struct Cameras: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List V4L2 capture devices with their modes and controls, and the mode picked for a frame rate.",
        discussion: """
            The mode picked is the largest one whose frame intervals allow the frame rate \
            (a compressed format first at the same size when pass-through is allowed). \
            Without --fps (25, 29.97, 30000/1001...), the picks for 30 and 60 fps are shown. With --test DEVICE, \
            that pick is set on the device and --frames frames are streamed: the measured \
            frame rate, the frames dropped (gaps in the driver's sequence numbers) and the \
            first and last frame timestamps (CLOCK_MONOTONIC) are printed. Exits 1 when \
            the device fails or disappears while streaming.
            """)

    @Flag(help: "One JSON object per line.")
    var json = false

    @Option(help: "The frame rate to pick a mode for: 23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60, or a fraction such as 15/2.")
    var fps: FrameRate?

    @Option(help: "The largest frame size to pick, WIDTHxHEIGHT such as 1280x720.")
    var maxSize: String?

    @Flag(help: "Do not pick compressed formats (MJPEG, H.264) to store as they come.")
    var noPassthrough = false

    @Option(help: "Stream from this device with the mode picked, e.g. /dev/video0.")
    var test: String?

    @Option(help: "How many frames to stream with --test.")
    var frames = 30

    @Option(
        name: .customLong("control"),
        help: ArgumentHelp(
            "Set a control of the --test device before streaming (repeatable).",
            discussion: "ID is a control id such as 0x00980900 or its name, e.g. Brightness.", valueName: "ID=VALUE"))
    var controls: [String] = []

    func validate() throws {
        if frames <= 0 { throw ValidationError("--frames must be positive, not \(frames)") }
        if !controls.isEmpty && test == nil { throw ValidationError("--control needs --test DEVICE") }
        for control in controls where Self.controlSetting(control) == nil {
            throw ValidationError("--control takes ID=VALUE such as Brightness=200 or 0x00980900=200, not '\(control)'")
        }
        if let maxSize, Self.size(maxSize) == nil {
            throw ValidationError("--max-size must be WIDTHxHEIGHT such as 1280x720, not '\(maxSize)'")
        }
    }

    static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        return (width, height)
    }

    /// `Brightness=200` or `0x00980900=200`: the id or name, and the value.
    static func controlSetting(_ text: String) -> (key: String, value: Int64)? {
        guard let equals = text.lastIndex(of: "=") else { return nil }
        let key = text[..<equals].trimmingSpaces, value = text[text.index(after: equals)...].trimmingSpaces
        guard !key.isEmpty, let number = Int64(value) else { return nil }
        return (key, number)
    }

    func selection(fps: FrameRate) -> FormatSelection {
        FormatSelection(fps: fps, maxSize: maxSize.flatMap(Self.size), passThrough: !noPassthrough)
    }

    func run() throws {
        if let test {
            try runTest(test)
        } else {
            list()
        }
    }

    // MARK: Listing

    func list() {
        let output = OutputStream()
        var found = 0
        for path in V4L2Camera.devicePaths() {
            let camera: V4L2Camera
            do {
                camera = try V4L2Camera(path: path)
            } catch {
                switch error {
                case .notACaptureDevice, .noStreaming: continue
                default:
                    found += 1
                    if json {
                        output.writeLine(JSONLine.encode(UnreadableDeviceLine(path: path, error: "\(error)")))
                    } else {
                        output.writeLine("\(path)  not readable: \(error)")
                    }
                    continue
                }
            }
            found += 1
            var modes: [CameraMode] = []
            var controls: [CameraControl] = []
            var errors: [String] = []
            do { modes = try camera.modes() } catch { errors.append("\(error)") }
            do { controls = try camera.controls() } catch { errors.append("\(error)") }
            let outcomes = (fps.map { [$0] } ?? [FrameRate(30), FrameRate(60)]).map {
                ($0, selection(fps: $0).select(from: modes))
            }
            if json {
                output.writeLine(Self.json(camera, modes, controls, outcomes, errors))
            } else {
                Self.text(camera, modes, controls, outcomes, errors).forEach(output.writeLine)
            }
        }
        output.flush()
        if found == 0 { OutputStream.writeError("slate cameras: no V4L2 capture devices (/dev/video*) found") }
    }

    static func text(
        _ camera: V4L2Camera, _ modes: [CameraMode], _ controls: [CameraControl],
        _ outcomes: [(FrameRate, FormatSelection.Outcome)], _ errors: [String]
    ) -> [String] {
        var lines = ["\(camera.path)  \(camera.card)", "    driver \(camera.driver), bus \(camera.busInfo)"]
        lines += errors.map { "    \($0)" }
        var formats: [FourCC] = []
        for mode in modes where !formats.contains(mode.pixelFormat) { formats.append(mode.pixelFormat) }
        for format in formats {
            let ofFormat = modes.filter { $0.pixelFormat == format }
            let first = ofFormat[0]
            var flags = ""
            if first.isCompressed { flags += ", compressed" }
            if first.isEmulated { flags += ", emulated by libv4l2" }
            let sizes = ofFormat.map { "\($0.size)@\($0.intervals.fastest?.fpsText ?? "?")" }
            lines.append("    \(format) (\(first.formatName)\(flags)): \(sizes.joined(separator: " "))")
        }
        if controls.isEmpty { lines.append("    no controls") }
        for control in controls {
            var line = "    control \(control.id) \(control.name) (\(control.kind.name)"
            if control.kind.hasValue {
                line += " \(control.minimum)..\(control.maximum)"
                if control.step > 1 { line += " step \(control.step)" }
                line += " default \(control.defaultValue)"
            }
            line += ")"
            if let value = control.value { line += " = \(value)" }
            if !control.menu.isEmpty {
                line += " [" + control.menu.map { "\($0.index): \($0.name)" }.joined(separator: ", ") + "]"
            }
            lines.append(line)
        }
        for (fps, outcome) in outcomes {
            if let choice = outcome.choice {
                lines.append(
                    "    \(fps) fps: \(choice.mode.description) at \(choice.interval) (\(choice.interval.fpsText) fps): \(outcome.reason)"
                )
            } else {
                lines.append("    \(fps) fps: nothing usable: \(outcome.reason)")
            }
        }
        return lines
    }

    static func json(
        _ camera: V4L2Camera, _ modes: [CameraMode], _ controls: [CameraControl],
        _ outcomes: [(FrameRate, FormatSelection.Outcome)], _ errors: [String]
    ) -> String {
        JSONLine.encode(
            CameraLine(
                path: camera.path, card: camera.card, driver: camera.driver, bus: camera.busInfo, errors: errors,
                modes: modes, controls: controls, selections: outcomes.map { (fps: $0.0, outcome: $0.1) }))
    }

    // MARK: Streaming test

    func runTest(_ path: String) throws {
        let fps = fps ?? FrameRate(30)
        let fail = { (message: String) -> ExitCode in
            OutputStream.writeError("slate cameras: \(message)")
            return ExitCode.failure
        }
        let camera: V4L2Camera
        let configured: (mode: CameraMode, interval: Fraction)
        do {
            camera = try V4L2Camera(path: path)
            if !controls.isEmpty {
                let available = try camera.controls()
                for setting in controls.compactMap(Self.controlSetting) {
                    guard let control = ControlSetting.control(named: setting.key, in: available) else {
                        throw fail("\(path): no control '\(setting.key)'; `slate cameras` lists them")
                    }
                    let kept = try camera.set(control.id, setting.value)
                    if !json {
                        OutputStream.writeError(
                            "slate cameras: \(path): set \(control.name) to \(setting.value), the driver kept \(kept)")
                    }
                }
            }
            let outcome = selection(fps: fps).select(from: try camera.modes())
            guard let choice = outcome.choice else { throw fail("\(path): no mode to stream: \(outcome.reason)") }
            if !outcome.reachesFrameRate { OutputStream.writeError("slate cameras: \(path): \(outcome.reason)") }
            configured = try camera.configure(mode: choice.mode, interval: choice.interval)
            try camera.start(bufferCount: 4)
        } catch let error as CameraError {
            throw fail("\(error)")
        }
        let output = OutputStream()
        if !json {
            output.writeLine(
                "\(path): \(configured.mode.description) at \(configured.interval) (\(configured.interval.fpsText) fps), "
                    + "\(camera.bufferCount) buffers of \(camera.frameBytes) bytes")
            output.flush()
        }
        var first: FrameInfo?
        var last: FrameInfo?
        var lastBytes = 0
        var count = 0
        var corrupt = 0
        var lastProgress = MonotonicClock.now()
        do {
            while count < frames {
                _ = try camera.waitForFrame(milliseconds: 200)
                // Dequeue even after a quiet wait: a device that went away says so here.
                // Read in place (no copy): only the size is needed.
                while count < frames, let (frame, size) = try camera.withNextFrame({ ($1, $0.count) }) {
                    if first == nil { first = frame }
                    last = frame
                    lastBytes = size
                    count += 1
                    if frame.isCorrupt { corrupt += 1 }
                    lastProgress = MonotonicClock.now()
                }
                if MonotonicClock.now() - lastProgress > .seconds(5) {
                    throw CameraError.state(
                        path: path, operation: "stream", reason: "no frame for 5 s after \(count) of \(frames) frames")
                }
            }
        } catch {
            camera.stop()
            throw fail("\(error), after \(count) of \(frames) frames")
        }
        let bufferCount = camera.bufferCount
        camera.stop()
        guard let first, let last else { throw fail("\(path): no frames") }
        let span = last.timestamp.microseconds - first.timestamp.microseconds
        let measured = span > 0 ? (Double(count - 1) * 1_000_000 / Double(span) * 100).rounded() / 100 : 0
        let zero = Instant(microseconds: 0)
        if json {
            let line = CameraTestLine(
                path: path, format: configured.mode.pixelFormat.string, width: configured.mode.width,
                height: configured.mode.height, interval: configured.interval.description,
                intervalFPS: configured.interval.fpsValue, buffers: bufferCount, frames: count, measuredFPS: measured,
                dropped: camera.droppedFrames, corrupt: corrupt, firstSequence: first.sequence, lastSequence: last.sequence,
                first: (first.timestamp - zero).inSeconds(), last: (last.timestamp - zero).inSeconds(),
                driverTimestamps: first.hasDriverTimestamp, bytes: lastBytes)
            output.writeLine(JSONLine.encode(line))
        } else {
            output.writeLine(
                "\(count) frames in \(Instant.seconds(span)) s: \(span > 0 ? Self.decimals(measured, 2) : "0") fps measured, "
                    + "\(camera.droppedFrames) dropped (sequence \(first.sequence)..\(last.sequence))"
                    + (corrupt > 0 ? ", \(corrupt) marked corrupt" : ""))
            output.writeLine(
                "first frame at \(first.timestamp.seconds(since: zero)) s, last at \(last.timestamp.seconds(since: zero)) s "
                    + "(CLOCK_MONOTONIC, \(first.hasDriverTimestamp ? "the driver's timestamps" : "taken at dequeue"))")
        }
        output.flush()
    }

    /// `value` with `places` decimals, without Foundation.
    static func decimals(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale), fraction = String(scaled % Int64(scale))
        return "\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

extension Instant {
    /// A span in microseconds as seconds with three decimals.
    fileprivate static func seconds(_ micros: Int64) -> String {
        Instant(microseconds: micros).seconds(since: Instant(microseconds: 0), decimals: 3)
    }
}

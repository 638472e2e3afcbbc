import ArgumentParser
import SlateCore
import SlateDevices
import SlateSystem

/// `slate controls`: a camera's controls; setting them; watching them change.
struct Controls: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List, set or watch the controls of a V4L2 camera.",
        discussion: """
            Without --camera, the first V4L2 capture device. The listing shows each \
            control's key, type, range and step, default, current value, flags, what it \
            can back in Slate (slider, picker, zoom, exposure-bias) and its menu items; \
            with --json it is one line, a control catalog that models the camera \
            without it. `set NAME=VALUE ...` sets controls in order \
            (NAME is the key, the driver's name in any case, or the id in hex; VALUE an \
            integer, or a menu item's name) and prints what the driver kept; a name the \
            camera does not have sets nothing and exits 1. --watch prints each change \
            made from outside (another program, an automatic mode) until SIGINT or \
            SIGTERM, after a first line saying it is watching.
            """)

    @Option(help: "The camera, e.g. /dev/video0.")
    var camera: String?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "Print each change made to a control from outside, until SIGINT or SIGTERM.")
    var watch = false

    @Argument(help: ArgumentHelp("set, then the controls to set.", valueName: "set NAME=VALUE"))
    var words: [String] = []

    /// The settings after `set`.
    var settings: [ControlSetting] { words.dropFirst().compactMap(ControlSetting.init) }

    func validate() throws {
        guard let first = words.first else { return }
        guard first == "set", words.count > 1 else {
            throw ValidationError("expected `set NAME=VALUE ...`, not '\(words.joined(separator: " "))'")
        }
        if watch { throw ValidationError("--watch and set cannot go together") }
        for word in words.dropFirst() where ControlSetting(word) == nil {
            throw ValidationError("set takes NAME=VALUE such as brightness=200, not '\(word)'")
        }
    }

    func run() throws {
        let device = try open()
        do {
            if !words.isEmpty {
                try set(device)
            } else if watch {
                try watchChanges(device)
            } else {
                let catalog = ControlCatalog(camera: device.card, path: device.path, controls: try device.controls())
                let output = OutputStream()
                (json ? [catalog.json] : Self.table(catalog)).forEach(output.writeLine)
                output.flush()
            }
        } catch let error as CameraError {
            throw Self.fail("\(error)")
        }
    }

    static func fail(_ message: String) -> ExitCode {
        OutputStream.writeError("slate controls: \(message)")
        return ExitCode.failure
    }

    /// --camera, else the first capture device as `slate cameras` finds them.
    func open() throws -> V4L2Camera {
        if let camera {
            do { return try V4L2Camera(path: camera) } catch { throw Self.fail("\(error)") }
        }
        var unreadable: CameraError?
        for path in V4L2Camera.devicePaths() {
            do {
                return try V4L2Camera(path: path)
            } catch {
                switch error {
                case .notACaptureDevice, .noStreaming: continue
                default: unreadable = unreadable ?? error
                }
            }
        }
        throw Self.fail(unreadable.map { "\($0)" } ?? "no V4L2 capture devices (/dev/video*) found")
    }

    // MARK: Listing

    /// One header line, then one aligned line per control.
    static func table(_ catalog: ControlCatalog) -> [String] {
        let rows = catalog.lines.map { line -> [String] in
            let control = line.control
            var range = "-"
            if control.kind.hasValue {
                range = "\(control.minimum)..\(control.maximum)" + (control.step > 1 ? " step \(control.step)" : "")
            }
            var value = control.value.map(String.init) ?? "-"
            if let current = control.value, let item = control.menuName(of: current), control.kind == .menu {
                value += " (\(item))"
            }
            return [
                control.key, control.kind.name, range, control.kind.hasValue ? "\(control.defaultValue)" : "-", value,
                control.flagNames.joined(separator: ","), line.backs.map(\.rawValue).joined(separator: ","),
                menu(control),
            ]
        }
        let header = ["key", "type", "range", "default", "value", "flags", "backs", "menu"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let align = { (row: [String]) -> String in
            let padded = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return String(padded.joined().reversed().drop { $0 == " " }.reversed())
        }
        let title = "\(catalog.path)  \(catalog.camera)"
        return [title] + (rows.isEmpty ? ["    no controls"] : ([header] + rows).map { "    " + align($0) })
    }

    /// A menu's items, `index: name`, the first eight of a longer one.
    static func menu(_ control: CameraControl) -> String {
        let items = control.menu.prefix(8).map { "\($0.index): \($0.name)" }.joined(separator: ", ")
        return control.menu.count > 8 ? items + ", … (\(control.menu.count) items)" : items
    }

    // MARK: Setting

    func set(_ device: V4L2Camera) throws {
        let controls = try device.controls()
        var resolved: [(control: CameraControl, value: Int64)] = []
        for setting in settings {
            switch setting.resolve(in: controls) {
            case .success(let found): resolved.append(found)
            case .failure(let error): throw Self.fail("\(device.path): \(error)")
            }
        }
        let output = OutputStream()
        for (control, asked) in resolved {
            let kept = try device.set(control.id, asked)
            if json {
                output.writeLine(JSONLine.encode(ControlSetLine(control, asked: asked, kept: kept)))
            } else {
                let item = control.menuName(of: kept).map { " (\($0))" } ?? ""
                let what = kept == asked ? "set to \(kept)" : "asked \(asked), kept \(kept)"
                output.writeLine("\(control.key): \(what)\(item)")
            }
            output.flush()
        }
    }

    // MARK: Watching

    func watchChanges(_ device: V4L2Camera) throws {
        var known: [CameraControl.ID: CameraControl] = [:]
        for control in try device.subscribeControlEvents() { known[control.id] = control }
        let output = OutputStream()
        let origin = MonotonicClock.now()
        var failure: CameraError?
        do {
            let loop = try EventLoop()
            try loop.handleSignals([Signal.interrupt, Signal.terminate]) { _ in loop.stop() }
            try loop.watch(device.fd, for: .priority) {
                do throws(CameraError) {
                    for change in try device.controlChanges() {
                        guard let control = known[change.id] else { continue }
                        output.writeLine(Self.line(change, of: control, origin: origin, json: json))
                        known[change.id] = change.applied(to: control)
                    }
                } catch {
                    failure = error
                    loop.stop()
                }
            }
            output.writeLine(
                json
                    ? JSONLine.encode(ControlWatchLine(camera: device.card, path: device.path, controls: known.count))
                    : "watching \(known.count) controls of \(device.path) (\(device.card)) until SIGINT or SIGTERM")
            output.flush()
            try loop.run(nextDeadline: { nil }, afterWake: { output.flush() })
        } catch {
            throw Self.fail("\(device.path): \(error)")
        }
        if let failure { throw Self.fail("\(failure)") }
    }

    /// `1.250 s  brightness = 200, enabled; value changed`, or its JSON line.
    static func line(_ change: CameraControlChange, of control: CameraControl, origin: Instant, json: Bool) -> String {
        let line = ControlChangeLine(change, of: control, origin: origin)
        if json { return JSONLine.encode(line) }
        let why = line.flags.filter { $0 == "inactive" || $0 == "read-only" }.joined(separator: ", ")
        let value = line.value.map { " = \($0)" } ?? ""
        return "\(change.time.seconds(since: origin, decimals: 3)) s  \(line.control)\(value), "
            + (change.isEnabled ? "enabled" : "disabled (\(why))") + "; \(line.changed.joined(separator: ", ")) changed"
    }
}

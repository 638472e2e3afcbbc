import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateSystem

/// `slate setup`: a first rig in five minutes.
struct Setup: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Set up a first rig: press its buttons, pick what each does, and get a checked profile.",
        discussion: """
            Lists the input devices this user can read and asks for each button or pedal \
            to be pressed once, from left to right (or reads the presses of --replay FILE). \
            Each button then gets a job: record (a click starts or stops a take, held it \
            records while held), delete the last take, export, or nothing; by default one \
            button records, two record and delete, three export, record and delete. The \
            first camera and sound capture device present are picked (the test pattern \
            when there is no camera). The profile is checked as slate check checks it and \
            written to $XDG_CONFIG_HOME/slate/rig.yaml (else ~/.config/slate/rig.yaml), \
            never over an existing file without asking. It prints the udev rule that gives \
            the device to the logged-in user (--udev writes it, as root) and, with \
            --service, enables the systemd user unit with the drop-in the profile needs.
            """)

    @Option(help: "Read the presses from this evemu or libinput recording instead of the devices.")
    var replay: String?

    @Flag(help: "Accept every default without asking.")
    var yes = false

    @Flag(help: "Write the device's udev rule to /etc/udev/rules.d/70-slate-local.rules (as root).")
    var udev = false

    @Flag(help: "Enable and start the systemd user unit, with the drop-in the profile needs.")
    var service = false

    @Option(help: "Where to write the profile.")
    var output: String?

    func run() throws {
        try Slate.claimSignals([Signal.interrupt, Signal.terminate])
        let started = MonotonicClock.now()
        let heard = try listen()
        print("pressed on \(heard.identity.name) (\(heard.path)): \(heard.codes.map(\.name).joined(separator: ", "))")
        var jobs = RigSetup.defaultJobs(count: heard.codes.count)
        if !yes {
            for (index, code) in heard.codes.enumerated() { jobs[index] = ask(code, default: jobs[index]) }
        }
        let cameras = CameraDirectory.present()
        let camera = cameras.first.map { $0.links.first(where: { $0.contains("/by-id/") }) ?? $0.path }
        print("camera: " + (cameras.first.map { "\(camera!) (\($0.card))" } ?? "none present; the test pattern stands in"))
        let sound = SoundCaptureDevices.list().first { $0.error == nil && !$0.busy }?.device
        print("sound: " + (sound ?? "no capture device present; takes are picture only"))
        let setup = RigSetup(
            device: heard.identity, buttons: Array(zip(heard.codes, jobs)).map { (code: $0.0, job: $0.1) }, camera: camera,
            sound: sound)
        let path = output ?? UserPath.defaultProfile
        let profile: Profile
        switch ProfileLoader.load(setup.profile, file: path) {
        case .success(let checked): profile = checked
        case .failure(let errors):
            OutputStream.writeError("slate setup: the profile made does not check (a bug):\n\(errors)\n\(setup.profile)")
            throw ExitCode.failure
        }
        try write(setup.profile, to: path)
        print("wrote \(path) (checked) in \(Instant.formatSeconds((MonotonicClock.now() - started).microseconds, decimals: 1)) s")
        if let rule = setup.udevRule { try udevRule(rule) }
        if service { try enableService(profile) }
    }

    /// The presses: from the recording, or from the devices.
    private func listen() throws -> PressListener.Heard {
        if let replay {
            let recording = try ReplayCommand.loadOrExit(replay)
            guard let device = recording.devices.first(where: { !RigSetup.pressed($0.events).isEmpty }) else {
                OutputStream.writeError("slate setup: \(replay) holds no key or button pressed")
                throw Slate.badInput
            }
            return PressListener.Heard(path: replay, identity: device.identity, codes: RigSetup.pressed(device.events))
        }
        let listener: PressListener
        do {
            listener = try PressListener()
        } catch {
            OutputStream.writeError("slate setup: \(error)")
            throw ExitCode.failure
        }
        print("input devices this user can read:")
        for (path, identity) in listener.devices { print("  \(path)  \(identity.name)") }
        if !listener.unreadable.isEmpty {
            print("input devices this user cannot read:")
            for device in listener.unreadable { print("  \(device.path)  \(device.name): \(device.reason)") }
            var said: Set<String> = []
            for advice in listener.unreadable.compactMap(\.access) where said.insert(advice).inserted {
                print("  " + advice)
            }
        }
        print("press each button or pedal of the rig once, from left to right; then wait 3 seconds")
        guard let heard = try listener.listen(first: .seconds(60), quiet: .seconds(3)) else {
            OutputStream.writeError("slate setup: nothing was pressed within a minute")
            throw ExitCode.failure
        }
        return heard
    }

    /// What `code` is to do: a number from the menu, or the default.
    private func ask(_ code: EventCode, default job: RigSetup.Job) -> RigSetup.Job {
        let jobs = RigSetup.Job.allCases
        print("\(code.name) does:")
        for (index, choice) in jobs.enumerated() { print("  \(index + 1). \(choice.text)") }
        print("[\((jobs.firstIndex(of: job) ?? 0) + 1)] ", terminator: "")
        guard let answer = readLine(), let number = Int(answer), (1...jobs.count).contains(number) else { return job }
        return jobs[number - 1]
    }

    /// Writes the profile, asking before it replaces a file (never with --yes).
    private func write(_ text: String, to path: String) throws {
        let (folderPath, name) = Folder.split(path)
        if Syscall.isFile(path) {
            print("\(path) exists; replace it? [y/N] ", terminator: "")
            guard !yes, readLine()?.lowercased().hasPrefix("y") == true else {
                OutputStream.writeError("slate setup: \(path) exists and is kept; the profile made:\n\(text)")
                throw ExitCode.failure
            }
        }
        do {
            try FileWriting.atomicWrite(text, to: name, in: try Folder(folderPath, creating: 0o755), mode: 0o644)
        } catch {
            OutputStream.writeError("slate setup: \(error)")
            throw ExitCode.failure
        }
    }

    /// Prints the device's udev rule; with --udev writes it and has udev apply it.
    private func udevRule(_ rule: String) throws {
        let file = "/etc/udev/rules.d/70-slate-local.rules"
        guard udev else {
            print("the udev rule that gives this device to the logged-in user (sudo slate setup --udev writes it):")
            print("  echo '\(rule)' | sudo tee -a \(file) && sudo udevadm control --reload && sudo udevadm trigger")
            return
        }
        let existing = (try? FileReading.text(atPath: file)) ?? ""
        if !existing.split(separator: "\n").contains(Substring(rule)) {
            do {
                try FileWriting.atomicWrite(
                    existing + "# Written by slate setup.\n" + rule + "\n", to: "70-slate-local.rules",
                    in: try Folder("/etc/udev/rules.d"), mode: 0o644)
            } catch {
                OutputStream.writeError("slate setup: \(error) (--udev writes it as root)")
                throw ExitCode.failure
            }
        }
        for command in [["udevadm", "control", "--reload"], ["udevadm", "trigger", "--subsystem-match=input"]] {
            _ = try? ProcessLauncher.output(of: command)
        }
        print("wrote the udev rule to \(file)")
    }

    /// Writes the unit's drop-in the profile needs, then enables and starts the unit.
    private func enableService(_ profile: Profile) throws {
        let home = UserPath.expand("~")
        if let dropIn = RigSetup.serviceDropIn(for: profile, home: home) {
            let folder = UserPath.expand("~/.config/systemd/user/slate.service.d")
            do {
                try FileWriting.atomicWrite(dropIn, to: "setup.conf", in: try Folder(folder, creating: 0o755), mode: 0o644)
            } catch {
                OutputStream.writeError("slate setup: \(error)")
                throw ExitCode.failure
            }
            print("wrote \(folder)/setup.conf")
        }
        for command in [["systemctl", "--user", "daemon-reload"], ["systemctl", "--user", "enable", "--now", "slate"]] {
            let result: (status: Int32, output: String)
            do {
                result = try ProcessLauncher.output(of: command)
            } catch {
                OutputStream.writeError("slate setup: \(error)")
                throw ExitCode.failure
            }
            guard result.status == 0 else {
                OutputStream.writeError(
                    "slate setup: \(command.joined(separator: " ")) failed (status \(result.status)); is the slate package installed?"
                )
                throw ExitCode.failure
            }
        }
        print("the slate user service is enabled and started: systemctl --user status slate")
    }
}

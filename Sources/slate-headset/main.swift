import ArgumentParser
import CBluetooth

/// An emulated Bluetooth headset for Slate's rig VM lane: from a controller of
/// its own it connects AVCTP to the rig's controller, as a headset's AVRCP
/// controller does, and sends PASS THROUGH commands from a script, so that
/// BlueZ's bluetoothd makes its real `<name> (AVRCP)` input device.
struct SlateHeadset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slate-headset",
        abstract: "An emulated Bluetooth headset that sends AVRCP PASS THROUGH commands from a script.",
        discussion: """
            The script comes from FILE or standard input, a step a line, each run as it is read:
              connect | disconnect | reconnect
              click OP | hold OP 1.5s | press OP | release OP
              alternate COUNT INTERVAL   (PLAY and PAUSE by turns)
              wait 500ms
            OP: PLAY, PAUSE, STOP, FORWARD, BACKWARD, VOLUME_UP, VOLUME_DOWN, MUTE, RECORD,
            REWIND, FAST_FORWARD. Each thing sent is printed as a JSON line with its time on
            CLOCK_MONOTONIC and the rig's answer.
            """)

    @Option(help: "The headset's own controller, e.g. hci1.")
    var adapter: String

    @Option(help: "The rig's controller address, e.g. 00:AA:01:00:00:23.")
    var rig: String

    @Argument(help: "The script (default: standard input).")
    var script: String?

    func run() throws {
        let device = hci_devid(adapter)
        var local = bdaddr_t()
        guard device >= 0, hci_devba(device, &local) == 0 else {
            throw ValidationError("no Bluetooth controller \(adapter)")
        }
        var remote = bdaddr_t()
        guard str2ba(rig, &remote) == 0, rig.split(separator: ":").count == 6 else {
            throw ValidationError("'\(rig)' is not a Bluetooth address such as 00:AA:01:00:00:23")
        }
        let input: UnsafeMutablePointer<FILE>
        if let script {
            guard let file = fopen(script, "r") else {
                throw ValidationError("\(script): \(String(cString: strerror(slate_headset_errno())))")
            }
            input = file
        } else {
            guard let standardInput = fdopen(STDIN_FILENO, "r") else { throw ValidationError("standard input cannot be read") }
            input = standardInput
        }
        let headset = Headset(adapter: local, rig: remote)
        var number = 0
        while let line = readLine(from: input) {
            number += 1
            do {
                if let step = try HeadsetStep.parse(line) { headset.run(step) }
            } catch {
                throw ValidationError("\(script ?? "standard input"):\(number): \(error)")
            }
        }
        if headset.failed { throw ExitCode.failure }
    }

    private func readLine(from file: UnsafeMutablePointer<FILE>) -> String? {
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        guard getline(&line, &capacity, file) >= 0, let line else { return nil }
        return String(cString: line)
    }
}

SlateHeadset.main()

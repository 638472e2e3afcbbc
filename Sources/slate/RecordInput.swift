import ArgumentParser
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem
import SystemPackage

/// `slate record-input`: an evemu recording of one device, for `slate replay`.
struct RecordInput: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record-input",
        abstract: "Record a device's events in evemu format: slate record-input /dev/input/eventN > rig.evemu",
        discussion: "Records until SIGINT or SIGTERM, or until the device goes away.")

    @Argument(help: "The device's event node.")
    var device: String

    func run() throws {
        let input: EvdevDevice
        let loop: EventLoop
        do {
            input = try EvdevDevice(path: device)
            loop = try EventLoop()
            try loop.handleSignals([Signal.interrupt, Signal.terminate]) { _ in loop.stop() }
        } catch {
            OutputStream.writeError("slate record-input: \(error)")
            throw ExitCode.failure
        }
        let output = OutputStream()
        EvemuWriter.header(input.identity, properties: input.properties, axes: input.axes).forEach(output.writeLine)
        output.flush()
        var writer = EvemuWriter()
        var failure: OperationError?
        try? loop.watch(input.fd) {
            if case .failed(let error) = input.readAvailable({ event, _ in output.writeLine(writer.event(event)) }) {
                failure = error
                loop.stop()
            }
        }
        try loop.run(nextDeadline: { nil }, afterWake: { output.flush() })
        output.flush()
        if let failure, failure.errno != .noSuchDevice {
            OutputStream.writeError("slate record-input: \(failure)")
            throw ExitCode.failure
        }
    }
}

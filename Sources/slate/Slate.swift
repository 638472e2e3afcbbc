import ArgumentParser
import Logging
import SlateCore
import SlateDaemon
import SlateDevices
import SlateMedia
import SlateSystem

@main
struct Slate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Physical buttons to camera capture events, for Linux camera rigs.",
        version: "slate \(SlateVersion.current)",
        subcommands: [
            Check.self, ReplayCommand.self, MonitorCommand.self, Devices.self, RecordInput.self, Sound.self, Audio.self,
            Cameras.self,
            Controls.self,
            Run.self, Rigs.self, Record.self, RecordPattern.self, Takes.self, Codes.self, ProbeEncoder.self,
        ])

    /// Exit status for bad input: an invalid profile or recording.
    static let badInput = ExitCode(2)

    /// Claims `signals` for the command's signalfd before any thread starts,
    /// or exits saying why it cannot.
    static func claimSignals(_ signals: [Int32]) throws {
        do {
            try EventLoop.claimSignals(signals)
        } catch {
            OutputStream.writeError("slate: \(error)")
            throw ExitCode.failure
        }
    }

    static func bootstrapLogging() {
        LoggingSystem.bootstrap { TerminalLogHandler(label: $0) }
    }
}

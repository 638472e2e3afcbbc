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
            Check.self, ReplayCommand.self, MonitorCommand.self, Devices.self, RecordInput.self, Sound.self, Audio.self, Cameras.self,
            Controls.self,
            Run.self, Rigs.self, Record.self, RecordPattern.self, Takes.self, Codes.self, ProbeEncoder.self,
        ])

    /// Exit status for bad input: an invalid profile or recording.
    static let badInput = ExitCode(2)

    static func bootstrapLogging() {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
    }
}

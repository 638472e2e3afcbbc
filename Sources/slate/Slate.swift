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
        discussion: """
            Every command exits 0 when it did what it was asked (slate run and slate \
            monitor also when SIGINT or SIGTERM ended them, a take in progress closed), \
            1 when it could not (a device, the camera, a file or the network failed; the \
            reason is on standard error), 2 when its input is invalid (a profile, a \
            recording, a take list; each error as FILE:LINE:COLUMN: error: MESSAGE), and \
            64 when its command line is wrong. A command given no --profile that needs \
            one reads $XDG_CONFIG_HOME/slate/rig.yaml, else ~/.config/slate/rig.yaml, \
            and says so.
            """,
        version: "slate \(SlateVersion.current)",
        subcommands: [
            Setup.self, Check.self, ReplayCommand.self, MonitorCommand.self, Devices.self, RecordInput.self, Sound.self,
            Audio.self,
            Cameras.self,
            Controls.self,
            Run.self, Pair.self, Rigs.self, Record.self, RecordPattern.self, Takes.self, Codes.self, Encoders.self,
            ProbeEncoder.self,
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

    /// Log lines on standard error from `level` up, with priorities and no
    /// times of their own when it is the journal, coloured on a terminal.
    static func bootstrapLogging(_ level: Logger.Level) {
        let destination: TerminalLogHandler.Destination =
            ServiceManager.journalIsStandardError
            ? .journal
            : Terminal.drawsInPlace(.standardError) ? .terminal(color: Terminal.takesColor(.standardError)) : .plain
        LoggingSystem.bootstrap { TerminalLogHandler(label: $0, level: level, destination: destination) }
    }
}

/// The log's option, for the commands that log as they run.
struct LogOptions: ParsableArguments {
    @Option(help: "The least level logged: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .info
}

extension Logger.Level: @retroactive ExpressibleByArgument {
}

import Logging
import SlateCore
import SlateDevices
import SlateMedia
import SlateSystem

/// Carries out a rig machine's effects in order: report lines printed, sounds
/// played, programs started (their times on the rig's clock, as live events
/// are), take and camera commands handed to the recorder.
public struct EffectCarrier {
    public var printer: ReportPrinter
    /// Plays sounds; nil where nothing is played.
    public var sounds: SoundPlayer?
    /// Records takes; nil where nothing is recorded (monitor).
    public var recorder: LiveRecorder?
    /// Also given each report, and its line as JSON holds it (the rig's page, the broker).
    var lines: ((Report, ReportLine) -> Void)?
    /// Sends `rigs` and `rig` commands; nil where the rig joins no broker.
    var network: RigNetwork?
    /// Sends `obs` requests; nil where the profile names no OBS.
    var obs: OBSBridge?
    let log: Logger
    /// Stamps when reports were handled and programs started.
    let clock: any RigClock

    public init(
        printer: ReportPrinter, sounds: SoundPlayer?, recorder: LiveRecorder? = nil, log: Logger,
        clock: any RigClock = SystemClock()
    ) {
        self.clock = clock
        self.printer = printer
        self.sounds = sounds
        self.recorder = recorder
        self.log = log
    }

    /// Returns the report lines given to `lines` (none without it).
    @discardableResult
    public func carryOut(_ effects: [RigEffect]) -> [ReportLine] {
        guard !effects.isEmpty else { return [] }
        let dispatched = printer.timing ? clock.now() : nil
        var given: [ReportLine] = []
        for effect in effects {
            switch effect {
            case .report(let report):
                printer.print(report, dispatched: dispatched)
                if let lines {
                    let line = ReportLine(report, origin: printer.format.origin, dispatched: dispatched)
                    lines(report, line)
                    given.append(line)
                }
            case .play(let sound): sounds?.play(sound.sound)
            case .exec(let argv, let environment, let time): launch(argv, environment, at: time)
            case .take(let command, let time): recorder?.perform(command, at: time)
            case .camera(let command, let time): recorder?.apply(command, at: time)
            case .preset(let command, let time): recorder?.preset(command, at: time)
            case .rigs(let command, let time):
                if let network { given += carryOut([.report(network.send(command, at: time, effects: self))]) }
            case .obs(let request, _): obs?.send(request)
            case .attachment: break
            }
        }
        return given
    }

    private func launch(_ argv: [String], _ environment: [(String, String)], at time: Instant) {
        let times = ExecEnvironment.times(
            of: time, since: printer.format.origin, wallClock: clock.wallClock(of: time))
        do {
            try ProcessLauncher.launch(argv, environment: environment + times, replacing: ExecEnvironment.names)
        } catch {
            log.warning("exec: \(error)")
        }
    }
}

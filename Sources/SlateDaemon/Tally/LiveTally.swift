import Logging
import SlateCore
import SlateSystem

/// The rig's tally: the machine that decides what each light shows, the LEDs
/// of input devices (set through the rig's inputs) and the lamps' thread.
final class LiveTally {
    private var machine: TallyMachine
    private let lamps: TallyLamps?
    /// Sets an LED of an input's devices: input name, code, lit.
    var setLED: (String, UInt16, Bool) -> Void = { _, _, _ in }

    init(spec: TallySpec, at now: Instant, logger: Logger) throws(OperationError) {
        machine = TallyMachine(spec: spec, at: now)
        let hasLamps = spec.outputs.contains { if case .led = $0.target { false } else { true } }
        lamps = hasLamps ? try TallyLamps(outputs: spec.outputs, logger: logger) : nil
    }

    /// What the lights show now.
    var state: TallyState { machine.state }

    /// When the next blink, refresh or end of an error is due.
    var nextDeadline: Instant? { machine.nextDeadline }

    /// Every light as standby shows it.
    func start() { carry(machine.start()) }

    /// The rig's signals at `now`.
    func update(_ signals: TallySignals, at now: Instant) { carry(machine.update(signals, at: now)) }

    /// Something failed at `now`.
    func failed(at now: Instant) { carry(machine.failed(at: now)) }

    /// Darkens every light (Slate stops, or the profile's tally changed).
    func stop() {
        for output in machine.spec.outputs {
            if case .led(let input, let code) = output.target { setLED(input, code, false) }
        }
        lamps?.stop()
    }

    private func carry(_ shows: [TallyMachine.Show]) {
        for show in shows {
            if case .led(let input, let code) = machine.spec.outputs[show.output].target {
                setLED(input, code, show.light.isLit)
            } else {
                lamps?.show(show.light, on: show.output)
            }
        }
    }
}

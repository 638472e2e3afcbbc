import Logging
import SlateCore
import SlateSystem

/// The rig's tally: the machine that decides what each light shows, the LEDs
/// of input devices (set through the rig's inputs) and the lamps' threads.
final class LiveTally {
    private var machine: TallyMachine
    private let lamps: TallyLamps
    /// Stopped: nothing is shown any more.
    private var stopped = false
    /// Sets an LED of an input's devices: input name, code, lit.
    var setLED: (String, UInt16, Bool) -> Void = { _, _, _ in }

    init(spec: TallySpec, at now: Instant, logger: Logger) throws(OperationError) {
        machine = TallyMachine(spec: spec, at: now)
        lamps = try TallyLamps(outputs: spec.outputs, logger: logger)
    }

    /// The tally of a SIGHUP'd profile's `spec`, going on from `old` (its
    /// state, error hold and blinking): lamps both have go on lit, without
    /// being released; the old ones go dark. `old` is spent.
    init(spec: TallySpec, replacing old: LiveTally, logger: Logger) throws(OperationError) {
        machine = TallyMachine(spec: spec, continuing: old.machine)
        lamps = try TallyLamps(outputs: spec.outputs, reusing: old.lamps, logger: logger)
        setLED = old.setLED
        for led in old.leds where led.light?.isLit == true {
            if !spec.outputs.contains(where: { $0.target == .led(input: led.input, code: led.code) }) {
                setLED(led.input, led.code, false)
            }
        }
    }

    /// What the lights show now.
    var state: TallyState { machine.state }

    /// When the next blink, refresh or end of an error is due.
    var nextDeadline: Instant? { machine.nextDeadline }

    /// Every light as the state shows it.
    func start() { carry(machine.start()) }

    /// The rig's signals at `now`.
    func update(_ signals: TallySignals, at now: Instant) { carry(machine.update(signals, at: now)) }

    /// Something failed at `now`.
    func failed(at now: Instant) { carry(machine.failed(at: now)) }

    /// Sets the LEDs again as they are shown (the rig's inputs were made anew).
    func reassertLEDs() {
        guard !stopped else { return }
        for led in leds {
            if let light = led.light { setLED(led.input, led.code, light.isLit) }
        }
    }

    /// Darkens every light and waits for the lamps' threads (Slate stops).
    func stop() {
        stopped = true
        for led in leds where led.light?.isLit != false { setLED(led.input, led.code, false) }
        lamps.stop()
    }

    /// The LED outputs and what each shows (nil before it was first shown).
    private var leds: [(input: String, code: UInt16, light: TallyLight?)] {
        machine.spec.outputs.indices.compactMap { index in
            guard case .led(let input, let code) = machine.spec.outputs[index].target else { return nil }
            return (input, code, machine.light(of: index))
        }
    }

    private func carry(_ shows: [TallyMachine.Show]) {
        guard !stopped else { return }
        for show in shows {
            if case .led(let input, let code) = machine.spec.outputs[show.output].target {
                setLED(input, code, show.light.isLit)
            } else {
                lamps.show(show.light, on: show.output)
            }
        }
    }
}

/// The `tally` section: lights that follow the rig's state.
public struct TallySpec: Equatable, Sendable {
    /// How long a failure shows as `error` (a lost camera shows until it is back).
    public var errorHold = TallySpec.defaultErrorHold
    public var outputs: [TallyOutput] = []

    public static let defaultErrorHold = Duration.seconds(5)
    public static let errorHolds = Duration.seconds(1)...Duration.seconds(600)
    /// The most outputs a profile lists.
    public static let outputLimit = 16

    public init(errorHold: Duration = TallySpec.defaultErrorHold, outputs: [TallyOutput] = []) {
        self.errorHold = errorHold
        self.outputs = outputs
    }
}

/// One light: where it is and what it shows in each state.
public struct TallyOutput: Equatable, Sendable {
    public var target: TallyTarget
    public var patterns: [TallyState: TallyPattern]

    public init(target: TallyTarget, patterns: [TallyState: TallyPattern] = [:]) {
        self.target = target
        self.patterns = patterns
    }

    /// What it shows in `state`: the profile's pattern, or the target's default.
    public func pattern(in state: TallyState) -> TallyPattern {
        patterns[state] ?? target.defaultPattern(in: state)
    }
}

/// Where a tally light is.
public enum TallyTarget: Equatable, Sendable, CustomStringConvertible {
    /// An `EV_LED` code on the devices bound to the profile's input `input`.
    case led(input: String, code: UInt16)
    /// A GPIO line (a board's LED or relay), through the chip's character device.
    case gpio(chip: String, line: Int, activeLow: Bool)
    /// A USB busylight through hidraw: `model` (nil: the first of any model
    /// found), or the node `device`.
    case busylight(model: BusylightModel?, device: String?)

    /// Whether it shows colours (a busylight) or only on and off.
    public var hasColors: Bool {
        if case .busylight = self { return true }
        return false
    }

    /// How often it is written again though nothing changed: a busylight
    /// (a Kuando goes dark without it, one plugged in late lights), and an LED
    /// (a device bound later, or a desktop that set its lock LEDs, shows the
    /// tally again; the kernel passes on only a change). A GPIO line keeps its value.
    public var refresh: Duration? {
        switch self {
        case .busylight: BusylightModel.refresh
        case .led: Self.ledRefresh
        case .gpio: nil
        }
    }

    public static let ledRefresh = Duration.seconds(1)

    /// Standby dark, recording lit, exporting dark, error blinking; a busylight
    /// standby green, recording red, exporting blue, error blinking amber.
    public func defaultPattern(in state: TallyState) -> TallyPattern {
        switch (state, hasColors) {
        case (.standby, false), (.exporting, false): .off
        case (.standby, true): .on(.green)
        case (.recording, _): .on(.red)
        case (.exporting, true): .on(.blue)
        case (.error, _): .blink(.amber)
        }
    }

    public var description: String {
        switch self {
        case .led(let input, let code): "\(EventCodes.name(type: 0x11, code: code) ?? "LED \(code)") of \(input)"
        case .gpio(let chip, let line, _): "GPIO \(chip) line \(line)"
        case .busylight(let model, let device): "busylight \(device ?? model?.rawValue ?? "of any model")"
        }
    }
}

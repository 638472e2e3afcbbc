/// What an `exec` program learns about the event that ran it, in SLATE_*
/// variables: the macro runner sets the event's, whoever starts the program
/// adds the times.
public enum ExecEnvironment {
    /// Every variable that describes an event. A program gets only those of
    /// its own event: one Slate inherited, say from a program another Slate
    /// started, is replaced or left out.
    public static let names: Set<String> = [
        "SLATE_INPUT", "SLATE_CODE", "SLATE_ROLE", "SLATE_GESTURE", "SLATE_VALUE", "SLATE_MACRO", "SLATE_RECORDING",
        "SLATE_TIME", "SLATE_TIME_REALTIME",
    ]

    /// The event: the input, code, role and gesture that ran the action (an
    /// axis has no role or gesture), the axis delta, the macro the step is in,
    /// and whether a take is recording.
    static func event(trigger: TriggerInfo?, value: Double?, macro: String?, recording: Bool) -> [(String, String)] {
        var environment = [("SLATE_RECORDING", recording ? "1" : "0")]
        if let trigger {
            environment.append(("SLATE_INPUT", trigger.input))
            environment.append(("SLATE_CODE", trigger.code.name))
            if let role = trigger.role { environment.append(("SLATE_ROLE", role.rawValue)) }
            if let gesture = trigger.gesture { environment.append(("SLATE_GESTURE", gesture.rawValue)) }
        }
        if let value { environment.append(("SLATE_VALUE", NumberText.format(value))) }
        if let macro { environment.append(("SLATE_MACRO", macro)) }
        return environment
    }

    /// When the action ran: SLATE_TIME in seconds since `origin`, the `t` of
    /// its report line, and SLATE_TIME_REALTIME, the same moment by the wall
    /// clock (`wallClock`, in seconds since 1970-01-01 UTC); six decimals each.
    public static func times(of time: Instant, since origin: Instant, wallClock: Instant) -> [(String, String)] {
        [
            ("SLATE_TIME", time.seconds(since: origin)),
            ("SLATE_TIME_REALTIME", wallClock.seconds(since: Instant(microseconds: 0))),
        ]
    }
}

/// What a command on a `cmd` topic may run here. Nothing a command runs
/// sends on (`rigs`, `rig`): a loop between rigs would never end. A command
/// from another rig (or any client of the broker) runs the profile's actions,
/// but of its macros only those in `mqtt.accept-macros`, and a macro that runs
/// a program only when `mqtt.accept-programs` lists it too. A `rigs` command
/// this rig sent runs here as its own profile says, sending on excepted.
public enum CommandSteps {
    /// Where the command came from.
    public enum Origin: Hashable, Sendable {
        /// This rig's own `rigs` command, run here too.
        case thisRig
        /// Another rig, or anything else that publishes on the broker.
        case broker
    }

    /// The steps `text` stands for in `profile`, or why it is refused.
    public static func steps(_ text: String, from origin: Origin, in profile: Profile) -> Result<[Step], ActionTextError> {
        let trimmed = text.trimmingSpaces
        let first = trimmed.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        if first == "rigs" || first == "rig" { return .failure(ActionTextError("a command does not send on")) }
        let steps: [Step]
        switch ActionText.steps(trimmed, in: profile) {
        case .success(let found): steps = found
        case .failure(let error): return .failure(error)
        }
        if steps.contains(where: \.action.sendsOn) {
            return .failure(ActionTextError("macro '\(trimmed)' sends on (rigs or rig), which a command never does"))
        }
        guard origin == .broker, profile.macros[trimmed] != nil else { return .success(steps) }
        let spec = profile.mqtt
        guard spec?.acceptedMacros.contains(trimmed) == true else {
            return .failure(ActionTextError("macro '\(trimmed)' is not one this rig accepts from others (mqtt.accept-macros)"))
        }
        if steps.contains(where: \.action.runsProgram), spec?.acceptedPrograms.contains(trimmed) != true {
            return .failure(
                ActionTextError(
                    "macro '\(trimmed)' runs a program, which this rig does not accept from others (mqtt.accept-programs)"))
        }
        return .success(steps)
    }
}

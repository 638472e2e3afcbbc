import SlateYAML

/// One action written as a profile writes it (`take.toggle`, `zoom.set 2`,
/// `control.set Zoom 2`, a macro's name), checked against a loaded profile:
/// what the HTTP API runs. `exec` is not taken: a program runs only from a
/// macro or a handler the profile itself holds, so a request names that macro.
public enum ActionText {
    /// The longest action text taken.
    public static let limit = 200

    /// The steps `text` stands for, or why it stands for none.
    public static func steps(_ text: String, in profile: Profile) -> Result<[Step], ActionTextError> {
        let trimmed = text.trimmingSpaces
        guard !trimmed.isEmpty else { return .failure(ActionTextError("an action is needed, such as take.toggle")) }
        guard trimmed.count <= limit, !trimmed.contains(where: \.isNewline) else {
            return .failure(ActionTextError("an action is one line of at most \(limit) characters"))
        }
        if let steps = profile.macros[trimmed] { return .success(steps) }
        let name = trimmed.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        if name == "exec" {
            return .failure(ActionTextError("exec is not run from a request: name a macro of the profile that runs the program"))
        }
        var parser = ProfileParser(file: "action", profile: profile)
        let node = YAMLNode.scalar(YAMLNode.Scalar(trimmed))
        let actions = parser.parseActions(node, "the request")
        if let diagnostic = parser.reader.diagnostics.first { return .failure(ActionTextError(diagnostic.message)) }
        let steps = actions.compactMap { action -> Step? in
            if case .action(let action) = action { return Step(action) }
            return nil
        }
        return steps.isEmpty ? .failure(ActionTextError("unknown action or macro '\(trimmed)'")) : .success(steps)
    }
}

/// Why an action's text names no action of the profile.
public struct ActionTextError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

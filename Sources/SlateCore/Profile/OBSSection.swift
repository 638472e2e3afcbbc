import SlateYAML

/// The `obs` section, and the `obs` action it allows.
extension ProfileParser {
    mutating func parseOBS(_ node: YAMLNode) -> OBSSpec? {
        guard let pairs = reader.mapping(node, "obs") else { return nil }
        reader.checkKeys(pairs, allowed: ["targets", "password-file"], in: "obs")
        guard let targetsNode = pairs.first(where: { $0.key == "targets" })?.value else {
            reader.error(node, "obs needs targets: [ws://127.0.0.1:4455], the OBS instances its actions go to")
            return nil
        }
        guard let targets = reader.strings(targetsNode, "obs.targets"), !targets.isEmpty else {
            reader.error(targetsNode, "obs.targets lists at least one ws://HOST:PORT")
            return nil
        }
        for target in targets {
            if let problem = OBSSpec.targetProblem(target) { reader.error(targetsNode, "obs.targets: \(problem)") }
        }
        var spec = OBSSpec(targets: targets)
        if let node = pairs.first(where: { $0.key == "password-file" })?.value {
            spec.passwordFile = reader.string(node, "obs.password-file")
        }
        return spec
    }

    /// `obs REQUEST [DATA]`: a request for every OBS of the obs section.
    mutating func obsAction(_ argument: YAMLNode) -> RawAction? {
        guard hasOBS else {
            reader.error(argument, "obs needs an obs section (the OBS instances it goes to)")
            return nil
        }
        guard let text = reader.string(argument, "obs") else { return nil }
        switch OBSRequest.parse(text) {
        case .success(let request): return .action(.obs(request))
        case .failure(let error):
            reader.error(argument, error.description)
            return nil
        }
    }
}

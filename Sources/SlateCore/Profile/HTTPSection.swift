import SlateYAML

/// The `http` section: `listen: "[ADDR:]PORT"`, where `slate run` serves the
/// rig's page, and `hosts: [NAME, ...]`, the other names it answers to.
extension ProfileParser {
    mutating func parseHTTP(_ node: YAMLNode) -> HTTPSpec? {
        guard let pairs = reader.mapping(node, "http") else { return nil }
        reader.checkKeys(pairs, allowed: ["listen", "hosts"], in: "http")
        let hosts = pairs.first { $0.key == "hosts" }.map { parseHTTPHosts($0.value) } ?? []
        guard let (_, _, value) = pairs.first(where: { $0.key == "listen" }) else {
            reader.error(node, "http needs listen: 127.0.0.1:8600 (or only a port)")
            return nil
        }
        guard let text = reader.string(value, "http.listen") else { return nil }
        switch HTTPListen.parse(text) {
        case .success(let listen): return HTTPSpec(listen: listen, hosts: hosts)
        case .failure(let error):
            reader.error(value, "http.listen: \(error)")
            return nil
        }
    }

    /// `hosts`: a list of host names, each checked.
    private mutating func parseHTTPHosts(_ node: YAMLNode) -> [String] {
        guard let items = reader.sequence(node, "http.hosts") else { return [] }
        var hosts: [String] = []
        for item in items {
            guard let name = reader.string(item, "each entry of http.hosts") else { continue }
            if let problem = HTTPSpec.hostProblem(name) {
                reader.error(item, "http.hosts: \(problem)")
            } else {
                hosts.append(name.lowercased())
            }
        }
        return hosts
    }
}

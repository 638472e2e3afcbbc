import Yams

/// The `http` section: `listen: "[ADDR:]PORT"`, where `slate run` serves the rig's page.
extension ProfileParser {
    mutating func parseHTTP(_ node: Node) -> HTTPListen? {
        guard let pairs = reader.mapping(node, "http") else { return nil }
        reader.checkKeys(pairs, allowed: ["listen"], in: "http")
        guard let (_, _, value) = pairs.first(where: { $0.key == "listen" }) else {
            reader.error(node, "http needs listen: 127.0.0.1:8600 (or only a port)")
            return nil
        }
        guard let text = reader.string(value, "http.listen") else { return nil }
        switch HTTPListen.parse(text) {
        case .success(let listen): return listen
        case .failure(let error):
            reader.error(value, "http.listen: \(error)")
            return nil
        }
    }
}

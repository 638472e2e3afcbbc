/// Where an OBS target, `ws://HOST:PORT[/PATH]`, points: the host (an IPv6
/// address without its brackets), the port and the path (`/` when none).
public struct OBSAddress: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var path: String

    /// Why a text is not an OBS target.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notWebSocket, noPort, noHost

        public var description: String {
            switch self {
            case .notWebSocket: "it is not a ws:// address"
            case .noPort: "it names no port"
            case .noHost: "it names no host"
            }
        }
    }

    public init(_ url: String) throws(Problem) {
        guard url.hasPrefix("ws://") else { throw .notWebSocket }
        let rest = url.dropFirst(5)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw .noPort }
        var host = authority[..<colon]
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw .noHost }
        self.host = String(host)
        self.port = port
    }

    /// The HTTP Host header: the address as the URL gives it.
    public var hostHeader: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}

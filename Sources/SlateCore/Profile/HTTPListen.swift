/// Where the rig's page listens: `PORT` (on 127.0.0.1), `ADDR:PORT`, or
/// `[IPv6]:PORT`. Anywhere but loopback, every request needs the token; the
/// address the host resolves to when bound says which it is, not its text.
public struct HTTPListen: Hashable, Sendable, CustomStringConvertible {
    public static let defaultHost = "127.0.0.1"

    public var host: String
    /// 0 asks the system for a free port.
    public var port: Int

    public init(host: String = Self.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Why a text is not `[ADDR:]PORT`.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var text: String
        public var reason: String

        public var description: String { "'\(text)' is not [ADDR:]PORT: \(reason)" }
    }

    /// `text` as `[ADDR:]PORT`, or why it is not one.
    public static func parse(_ text: String) -> Result<HTTPListen, ParseError> {
        let ipv6 = ParseError(text: text, reason: "an IPv6 address is written [::1]:8600")
        let trimmed = text.trimmingSpaces
        var host = defaultHost
        var portText = Substring(trimmed)
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]"), trimmed[trimmed.index(after: close)...].hasPrefix(":") else {
                return .failure(ipv6)
            }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            portText = trimmed[trimmed.index(close, offsetBy: 2)...]
        } else if let colon = trimmed.lastIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
            if host.contains(":") {
                return .failure(ipv6)
            }
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            return .failure(ParseError(text: text, reason: "the address is missing"))
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            return .failure(ParseError(text: text, reason: "the port is a number from 0 to 65535"))
        }
        return .success(HTTPListen(host: host, port: port))
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

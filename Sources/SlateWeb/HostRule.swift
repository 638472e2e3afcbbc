import NIOCore
import SlateCore

/// Which `Host` a request may name. A page on loopback is still within reach
/// of any web page through DNS rebinding (a name of the attacker's that
/// resolves to 127.0.0.1), and a browser sends that name as the Host; so the
/// page answers only its own names: the listen address, `localhost`, an
/// address of the machine, and the profile's `http.hosts`. A port, when the
/// Host gives one, must be the port the page listens on.
struct HostRule: Sendable {
    /// What a request's Host fields are worth.
    enum Verdict: Equatable {
        case ours
        /// 400: missing on HTTP/1.1, given twice, or not HOST[:PORT].
        case malformed(String)
        /// 421: a name or port the page does not answer to.
        case elsewhere(String)
    }

    let port: Int
    /// Lowercase names: the listen address, `localhost`, the profile's hosts.
    let names: Set<String>
    /// Addresses in their usual text: the bound one, the machine's, the profile's.
    let addresses: Set<String>
    /// The page's address, which a refusal names.
    let page: String

    init(listen: HTTPListen, bound: SocketAddress, hosts: [String], machine: [SocketAddress]) {
        port = bound.port ?? listen.port
        var names: Set<String> = ["localhost", listen.host.lowercased()]
        var addresses = Set(([bound] + machine).compactMap { Self.text(of: $0) })
        for host in hosts {
            let inner = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            if let address = Self.address(inner) { addresses.insert(address) } else { names.insert(host.lowercased()) }
        }
        if let address = Self.address(listen.host) { addresses.insert(address) }
        self.names = names
        self.addresses = addresses
        page = "http://\(HTTPListen(host: listen.host, port: port))/"
    }

    /// `fields`, the values of the request's Host fields; `http11`, whether it
    /// is HTTP/1.1 (which must send one); `local`, the address the client reached.
    func check(_ fields: [String], http11: Bool, local: SocketAddress?) -> Verdict {
        guard fields.count <= 1 else { return .malformed("the request has \(fields.count) Host fields; send one") }
        guard let field = fields.first else {
            return http11
                ? .malformed("an HTTP/1.1 request names the host it asks: send Host: \(page.dropFirst(7).dropLast())") : .ours
        }
        guard let (host, port) = Self.split(field) else {
            return .malformed("the Host field '\(field.prefix(100))' is not HOST[:PORT]")
        }
        if let port, port != self.port {
            return .elsewhere("the Host field names port \(port), but the page listens on port \(self.port): open \(page)")
        }
        if names.contains(host) { return .ours }
        if let address = Self.address(host), addresses.contains(address) || address == local.flatMap(Self.text(of:)) {
            return .ours
        }
        return .elsewhere(
            "this page does not answer to the host '\(host.prefix(100))', which may be another site's name for this machine (DNS rebinding): open \(page), or add the name to the profile's http.hosts"
        )
    }

    /// A Host field's host (lowercase, a name's final dot dropped, an IPv6
    /// address without its brackets) and port, or nil when it is not HOST[:PORT].
    static func split(_ field: String) -> (host: String, port: Int?)? {
        var host: Substring
        var port: Substring?
        if field.hasPrefix("[") {
            guard let close = field.firstIndex(of: "]") else { return nil }
            host = field[field.index(after: field.startIndex)..<close]
            let rest = field[field.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = field.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            if parts.count == 2 { port = parts[1] }
            if host.hasSuffix(".") { host = host.dropLast() }
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else { return nil }
        guard let port else { return (host.lowercased(), nil) }
        guard (1...5).contains(port.count), port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let number = Int(port),
            number <= 65535
        else { return nil }
        return (host.lowercased(), number)
    }

    /// `text` as an address's usual text, or nil when it is not an IP address.
    static func address(_ text: String) -> String? {
        (try? SocketAddress(ipAddress: text, port: 0)).flatMap(text(of:))
    }

    /// An address's usual text; an IPv4 address mapped into IPv6 (a
    /// dual-stack socket's) as IPv4.
    static func text(of address: SocketAddress) -> String? {
        guard let text = address.ipAddress else { return nil }
        if text.hasPrefix("::ffff:"), text.contains("."),
            (try? SocketAddress(ipAddress: String(text.dropFirst(7)), port: 0)) != nil
        {
            return String(text.dropFirst(7))
        }
        return text
    }
}

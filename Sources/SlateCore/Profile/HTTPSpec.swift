/// The `http` section: where `slate run` serves the rig's page, and the other
/// names a browser may reach it by.
public struct HTTPSpec: Hashable, Sendable {
    public var listen: HTTPListen
    /// Host names (or IP addresses) the page answers to besides its listen
    /// address, `localhost` and the machine's addresses: `rig.local`, a name
    /// a proxy forwards. Lowercase.
    public var hosts: [String]

    public init(listen: HTTPListen, hosts: [String] = []) {
        self.listen = listen
        self.hosts = hosts
    }

    /// Why `name` cannot be one of `hosts`, or nil when it can be one: a
    /// host name, an IPv4 address, or an IPv6 address in brackets, as an
    /// address bar shows it, without a port.
    public static func hostProblem(_ name: String) -> String? {
        if name.hasPrefix("[") {
            let inner = name.dropFirst().dropLast()
            guard name.hasSuffix("]"), !inner.isEmpty, inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                return "'\(name)' is not an IPv6 address in brackets such as [fd00::2]"
            }
            return nil
        }
        if name.contains(":") {
            return
                "'\(name)' names a port or is an IPv6 address without brackets: write the host alone (the port is listen's), an IPv6 address as [fd00::2]"
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard name.utf8.count <= 253, labels.allSatisfy({ (1...63).contains($0.utf8.count) }),
            name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." || $0 == "_" })
        else {
            return "'\(name)' is not a host name: letters, digits, dashes and dots, such as rig.local (names, not patterns)"
        }
        return nil
    }
}

import NIOCore

/// The addresses a phone can open the page at: for a wildcard address (0.0.0.0,
/// ::), the profile's `http.hosts` names, then each address of the machine's
/// interfaces but loopback and link-local (IPv6 ones only when the socket takes
/// IPv6), or loopback's when there are none; for any other, the profile's
/// names and the bound address.
enum PageLinks {
    static func links(bound: SocketAddress, port: Int, hosts: [String], machine: [SocketAddress]) -> [String] {
        let names = hosts.filter { HostRule.address($0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0) == nil }
        var addresses: [String] = []
        if let text = HostRule.text(of: bound), text == "0.0.0.0" || text == "::" {
            let ipv6 = text == "::"
            for address in machine {
                guard let text = HostRule.text(of: address), !BoundAddress.isLoopback(address) else { continue }
                let isIPv6 = text.contains(":")
                if isIPv6 && (!ipv6 || text.lowercased().hasPrefix("fe80:")) { continue }
                if !addresses.contains(text) { addresses.append(text) }
            }
            // A machine with no other interface up: this machine at least reaches it.
            if addresses.isEmpty && names.isEmpty { addresses.append(ipv6 ? "::1" : "127.0.0.1") }
        } else if let text = HostRule.text(of: bound) {
            addresses.append(text)
        }
        let ipv4 = addresses.filter { !$0.contains(":") }, ipv6 = addresses.filter { $0.contains(":") }
        let hostTexts = names + ipv4 + ipv6.map { "[\($0)]" }
        return hostTexts.map { "http://\($0):\(port)/" }
    }
}

import NIOCore
import Synchronization

/// The address the page's socket was bound to, known once it listens: it,
/// not the listen text, says whether the page is on loopback (where reads
/// need no token), and which Host names the page answers.
final class BoundAddress: Sendable {
    private struct Known {
        var address: SocketAddress
        var hosts: HostRule
        var links: [String]
    }

    private let known = Mutex<Known?>(nil)

    func set(_ address: SocketAddress, hosts: HostRule, links: [String]) {
        known.withLock { $0 = Known(address: address, hosts: hosts, links: links) }
    }

    /// The addresses a phone can open the page at (`PageLinks`): none until the socket is bound.
    var links: [String] { known.withLock { $0?.links ?? [] } }

    /// The Host rule; nil until the socket is bound.
    var hosts: HostRule? { known.withLock { $0?.hosts } }

    /// Whether only this machine can reach the page: false until it is bound.
    var isLoopback: Bool { known.withLock { $0.map { Self.isLoopback($0.address) } ?? false } }

    /// 127.0.0.0/8 or ::1 (or 127.0.0.0/8 mapped into IPv6); not a wildcard
    /// address (0.0.0.0, ::), which every interface reaches.
    static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let text = HostRule.text(of: address) else { return false }
        return text.contains(".") ? text.split(separator: ".").first == "127" : text == "::1"
    }
}

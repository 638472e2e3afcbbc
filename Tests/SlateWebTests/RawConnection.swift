import Glibc
import SlateCore
import SlateSystem

/// One TCP connection to the page, blocking, that sends exactly what a test
/// says (half a request, a byte at a time, no Host) and tells when the
/// server closed it. Use it on a thread of its own (`RigServerTests.onThread`).
final class RawConnection {
    private let fd: Int32
    /// What arrived so far.
    private(set) var received: [UInt8] = []
    /// Whether the server closed (or reset) the connection.
    private(set) var closed = false

    /// Connects to `address` (IPv4 or IPv6), port `port`; `receiveBuffer`
    /// sets the socket's receive buffer (a client that soon takes nothing more).
    init(port: Int, address: String = "127.0.0.1", receiveBuffer: Int32? = nil) {
        if address.contains(":") {
            fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, address, &socketAddress.sin6_addr)
            closed = Self.connect(fd, &socketAddress) != 0
        } else {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if var size = receiveBuffer {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
            socketAddress.sin_addr.s_addr = inet_addr(address)
            closed = Self.connect(fd, &socketAddress) != 0
        }
    }

    private static func connect<Address>(_ fd: Int32, _ address: inout Address) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
    }

    private var isOpen = true

    deinit { close() }

    /// Closes the client's end.
    func close() {
        if isOpen { Glibc.close(fd) }
        isOpen = false
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// Sends `text`; false when the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// A GET of `path` as a browser sends it (Host, keep-alive), with `headers` too.
    @discardableResult
    func get(_ path: String, host: String? = "127.0.0.1", headers: String = "") -> Bool {
        send("GET \(path) HTTP/1.1\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + headers + "\r\n")
    }

    /// Reads until the server closes, `enough` holds of what arrived, or
    /// `timeout` passes; returns whether the server closed.
    @discardableResult
    func read(for timeout: Duration, until enough: (String) -> Bool = { _ in false }) -> Bool {
        let deadline = MonotonicClock.now() + timeout
        while !closed && !enough(text) {
            let left = (deadline - MonotonicClock.now()).inSeconds()
            guard left > 0 else { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, left * 1000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                closed = true
            } else {
                received += buffer[0..<count]
            }
        }
        return closed
    }

    /// Whether a whole response with a `Content-Length` body has arrived.
    static func hasResponse(_ text: String) -> Bool {
        guard let split = text.range(of: "\r\n\r\n"),
            let field = text[..<split.lowerBound].split(separator: "\r\n").first(where: {
                $0.lowercased().hasPrefix("content-length: ")
            }),
            let length = Int(field.dropFirst(16))
        else { return false }
        return text[split.upperBound...].utf8.count >= length
    }

    /// The status code of the first response, if one arrived.
    var status: Int? {
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }
}

import Glibc

/// A TCP socket bound to a free port of 127.0.0.1, listening if asked: a port
/// for a server a test starts, or one that another program holds.
package final class LoopbackSocket {
    package let fd: Int32
    package let port: Int

    /// Why no socket could be bound.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    package init(listening: Bool) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = self.fd
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (!listening || listen(fd, 16) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        guard fd >= 0, bound else {
            if fd >= 0 { close(fd) }
            throw Failure(description: "cannot bind a socket on 127.0.0.1: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// A port of 127.0.0.1 that was free a moment ago.
    package static func freePort() throws -> Int { try LoopbackSocket(listening: false).port }
}

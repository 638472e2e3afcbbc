import Foundation
import Glibc
import Testing

@testable import SlateSystem

/// sd_notify's datagrams, to a socket bound here as systemd binds its own.
@Suite struct ServiceManagerTests {
    /// A datagram socket bound at `path` (`@NAME`: abstract), and a read of what it got.
    final class Listener {
        let fd: Int32

        init(_ path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var name = Array(path.utf8)
            let abstract = name.first == UInt8(ascii: "@")
            if abstract { name[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (abstract ? 0 : 1))
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
            }
            try #require(fd >= 0 && bound == 0, "bind \(path): errno \(errno)")
        }

        deinit { close(fd) }

        func read() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        }
    }

    @Test(arguments: ["path", "abstract"])
    func aNoteIsOneDatagram(kind: String) throws {
        let name = "slate-notify-\(getpid())-\(UUID().uuidString.prefix(8))"
        let path = kind == "path" ? FileManager.default.temporaryDirectory.appendingPathComponent(name).path : "@" + name
        let listener = try Listener(path)
        defer { if kind == "path" { unlink(path) } }
        let manager = ServiceManager(socket: path, watchdog: nil)
        #expect(throws: Never.self) { try manager.notify("READY=1\nSTATUS=ready").get() }
        #expect(listener.read() == "READY=1\nSTATUS=ready")
    }

    @Test func aSocketThatIsNotThereIsAnErrorNamingIt() {
        let manager = ServiceManager(socket: "/nonexistent/notify", watchdog: nil)
        guard case .failure(let error) = manager.notify("READY=1") else {
            Issue.record("sent to no socket")
            return
        }
        #expect("\(error)".contains("/nonexistent/notify"))
    }
}

import Foundation
import SlateNetwork
import SlateSystem
import SlateTestSupport
import Synchronization
import Testing

/// MQTTLink against a real Mosquitto broker started for each test, with users, passwords and an ACL.
@Suite(.serialized) struct MQTTLinkTests {
    /// A Mosquitto on a free loopback port: user `rig` may read and write slate/#, `viewer` only read.
    final class Broker {
        let folder: String
        let port: Int
        let pid: pid_t

        init(port: Int? = nil) throws {
            folder = NSTemporaryDirectory() + "slate-mqtt-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            self.port = try port ?? Self.freePort()
            for (user, password) in [("rig", "rig-secret"), ("viewer", "viewer-secret")] {
                let made = try ProcessLauncher.output(
                    of: ["mosquitto_passwd"] + (user == "rig" ? ["-c"] : []) + ["-b", folder + "/passwords", user, password])
                #expect(made.status == 0)
            }
            try "user rig\ntopic readwrite slate/#\nuser viewer\ntopic read slate/#\n"
                .write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
            try """
            listener \(self.port) 127.0.0.1
            allow_anonymous false
            password_file \(folder)/passwords
            acl_file \(folder)/acl
            persistence false
            log_dest none
            """.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
            pid = try ProcessLauncher.launch(["/usr/sbin/mosquitto", "-c", folder + "/mosquitto.conf"], environment: [])
            let deadline = Date().addingTimeInterval(10)
            while !Self.accepts(self.port) {
                guard Date() < deadline else { throw CocoaError(.fileReadUnknown) }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        deinit {
            kill(pid, SIGTERM)
            waitpid(pid, nil, 0)
            try? FileManager.default.removeItem(atPath: folder)
        }

        static func freePort() throws -> Int { try LoopbackSocket.freePort() }

        static func accepts(_ port: Int) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }

        func settings(_ user: String, _ password: String, will: MQTTLink.Message? = nil) -> MQTTLink.Settings {
            Self.settings(port: port, user, password, will: will)
        }

        static func settings(port: Int, _ user: String, _ password: String, will: MQTTLink.Message? = nil) -> MQTTLink.Settings {
            MQTTLink.Settings(
                host: "127.0.0.1", port: port, clientID: "\(user)-\(UUID().uuidString.prefix(8))", username: user,
                password: password, will: will)
        }
    }

    /// What a link said, in order.
    final class Heard: Sendable {
        let events = Mutex<[MQTTLink.Event]>([])

        func add(_ event: MQTTLink.Event) { events.withLock { $0.append(event) } }

        /// Waits until `predicate` holds for what was heard, or `seconds` pass.
        @discardableResult
        /// Polls with `Task.sleep`, so the test holds none of the cooperative pool's threads while it waits.
        func wait(seconds: Double = 20, for predicate: ([MQTTLink.Event]) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if predicate(events.withLock { $0 }) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return predicate(events.withLock { $0 })
        }

        var messages: [MQTTLink.Message] {
            events.withLock { $0.compactMap { if case .message(let message) = $0 { message } else { nil } } }
        }
    }

    func link(_ settings: MQTTLink.Settings) async throws -> (MQTTLink, Heard) {
        let heard = Heard()
        let link = try MQTTLink(settings) { heard.add($0) }
        #expect(await heard.wait { $0.contains(.connected) }, "\(settings.username ?? "") connects")
        return (link, heard)
    }

    @Test func aCommandPublishedReachesTheRigSubscribed() async throws {
        let broker = try Broker()
        let (rig, heard) = try await link(broker.settings("rig", "rig-secret"))
        try rig.subscribe("slate/+/cmd")
        try await Task.sleep(for: .milliseconds(200))
        let (sender, _) = try await link(broker.settings("rig", "rig-secret"))
        let command = MQTTLink.Message(topic: "slate/a/cmd", payload: Array(#"{"action":"take.start"}"#.utf8), qos: 1)
        try sender.publish(command)
        #expect(await heard.wait { _ in heard.messages.contains { $0.topic == command.topic && $0.payload == command.payload } })
        rig.stop()
        sender.stop()
    }

    @Test func aMessageOverThePayloadLimitIsReportedNotDelivered() async throws {
        let broker = try Broker()
        var settings = broker.settings("rig", "rig-secret")
        settings.payloadLimit = 1000
        let (rig, heard) = try await link(settings)
        try rig.subscribe("slate/+/cmd")
        try await Task.sleep(for: .milliseconds(200))
        let (sender, _) = try await link(broker.settings("rig", "rig-secret"))
        try sender.publish(MQTTLink.Message(topic: "slate/a/cmd", payload: [UInt8](repeating: 0x20, count: 1001), qos: 1))
        try sender.publish(MQTTLink.Message(topic: "slate/b/cmd", payload: [UInt8](repeating: 0x20, count: 1000), qos: 1))
        #expect(await heard.wait { _ in heard.messages.contains { $0.topic == "slate/b/cmd" } })
        #expect(heard.events.withLock { $0.contains(.oversized(topic: "slate/a/cmd", bytes: 1001)) })
        #expect(heard.messages.map(\.topic) == ["slate/b/cmd"])
        rig.stop()
        sender.stop()
    }

    @Test func aWrongPasswordIsRefusedAndNeverConnects() async throws {
        let broker = try Broker()
        let heard = Heard()
        let link = try MQTTLink(broker.settings("rig", "wrong")) { heard.add($0) }
        #expect(await heard.wait { $0.contains { if case .disconnected = $0 { true } else { false } } })
        #expect(!heard.events.withLock { $0.contains(.connected) })
        let reason = heard.events.withLock { events -> String? in
            events.lazy.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }.first
        }
        #expect(reason?.lowercased().contains("not authori") == true, "\(reason ?? "")")
        link.stop()
    }

    @Test func aRigGoneWithoutGoodbyeIsSeenOfflineThroughItsWill() async throws {
        let broker = try Broker()
        let will = MQTTLink.Message(topic: "slate/a/state", payload: Array(#"{"online":false}"#.utf8), qos: 1, retain: true)
        let (rig, _) = try await link(broker.settings("rig", "rig-secret", will: will))
        try rig.publish(MQTTLink.Message(topic: "slate/a/state", payload: Array(#"{"online":true}"#.utf8), qos: 1, retain: true))
        let (watcher, heard) = try await link(broker.settings("viewer", "viewer-secret"))
        try watcher.subscribe("slate/+/state")
        #expect(await heard.wait { _ in heard.messages.contains { $0.payload == Array(#"{"online":true}"#.utf8) && $0.retain } })
        rig.stop(sayingGoodbye: false)
        #expect(await heard.wait { _ in heard.messages.contains { $0.payload == will.payload } })
        watcher.stop()
    }

    @Test func aViewerCannotSendACommand() async throws {
        let broker = try Broker()
        let (rig, heard) = try await link(broker.settings("rig", "rig-secret"))
        try rig.subscribe("slate/a/cmd")
        try await Task.sleep(for: .milliseconds(200))
        let (viewer, _) = try await link(broker.settings("viewer", "viewer-secret"))
        try viewer.publish(MQTTLink.Message(topic: "slate/a/cmd", payload: Array("denied".utf8), qos: 1))
        try rig.publish(MQTTLink.Message(topic: "slate/a/cmd", payload: Array("allowed".utf8), qos: 1))
        #expect(await heard.wait { _ in heard.messages.contains { $0.payload == Array("allowed".utf8) } })
        try await Task.sleep(for: .milliseconds(300))
        #expect(!heard.messages.contains { $0.payload == Array("denied".utf8) })
        rig.stop()
        viewer.stop()
    }

    @Test func aBrokerThatComesLaterIsJoined() async throws {
        let port = try Broker.freePort()
        let heard = Heard()
        let link = try MQTTLink(Broker.settings(port: port, "rig", "rig-secret")) { heard.add($0) }
        #expect(await heard.wait { $0.contains { if case .disconnected = $0 { true } else { false } } })
        try await Task.sleep(for: .milliseconds(1500))
        let broker = try Broker(port: port)
        #expect(await heard.wait { $0.contains(.connected) }, "joined once the broker listens on \(broker.port)")
        link.stop()
    }
}

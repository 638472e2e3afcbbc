/// The `mqtt` section: the broker the rig joins, the rig's name there, and how
/// synchronized commands are timed. The password is read from a file at
/// start, never written in the profile.
public struct MQTTSpec: Hashable, Sendable {
    public var broker: BrokerAddress
    /// The rig's name in topics (`slate/<rig>/state`): lowercase letters, digits and dashes.
    public var rig: String
    public var username: String?
    /// A file only its owner may read (0600) holding the broker password.
    public var passwordFile: String?
    /// The CA certificate an `mqtts://` broker's certificate is checked against
    /// (nil: the system's certificates).
    public var caFile: String?
    /// The first level of every topic.
    public var topicPrefix: String
    /// How far ahead a synchronized `rigs take.start` or `take.stop` is timed.
    public var startDelay: Duration
    /// How often the connection is checked (at least 5 s, as libmosquitto
    /// allows); a rig silent for 1.5 times this is offline.
    public var keepAlive: Duration
    /// The macros other rigs' commands may run here (`accept-macros`); any
    /// other macro named in a command is refused.
    public var acceptedMacros: Set<String> = []
    /// Of those, the ones that run a program (`accept-programs`): a macro
    /// holding `exec` runs from a command only when listed here too.
    public var acceptedPrograms: Set<String> = []

    public static let defaultStartDelay = Duration.milliseconds(150)
    public static let defaultKeepAlive = Duration.seconds(5)
    public static let defaultPrefix = "slate"

    public init(
        broker: BrokerAddress, rig: String, username: String? = nil, passwordFile: String? = nil, caFile: String? = nil,
        topicPrefix: String = Self.defaultPrefix, startDelay: Duration = Self.defaultStartDelay,
        keepAlive: Duration = Self.defaultKeepAlive
    ) {
        self.broker = broker
        self.rig = rig
        self.username = username
        self.passwordFile = passwordFile
        self.caFile = caFile
        self.topicPrefix = topicPrefix
        self.startDelay = startDelay
        self.keepAlive = keepAlive
    }

    /// Why `name` cannot name a rig, or nil when it can.
    public static func rigNameProblem(_ name: String) -> String? {
        let allowed = name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
        guard !name.isEmpty, name.utf8.count <= 32, allowed, !name.hasPrefix("-") else {
            return "a rig's name is 1 to 32 lowercase letters, digits and dashes, such as cam-a, not '\(name)'"
        }
        guard name != RigTopics.everyRig else { return "'\(RigTopics.everyRig)' names every rig; choose another name" }
        return nil
    }
}

/// An MQTT broker's address: `mqtt://HOST[:PORT]` (port 1883) or
/// `mqtts://HOST[:PORT]` (TLS, port 8883).
public struct BrokerAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var tls: Bool

    public init(host: String, port: Int, tls: Bool) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// `text` as a broker address, or why it is not one.
    public static func parse(_ text: String) -> Result<BrokerAddress, BrokerAddressError> {
        let trimmed = text.trimmingSpaces
        let tls: Bool
        let rest: Substring
        if trimmed.hasPrefix("mqtt://") {
            (tls, rest) = (false, trimmed.dropFirst(7))
        } else if trimmed.hasPrefix("mqtts://") {
            (tls, rest) = (true, trimmed.dropFirst(8))
        } else {
            return .failure(BrokerAddressError(text: text, reason: "it starts with mqtt:// or mqtts://"))
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("/"), !authority.contains("@") else {
            return .failure(
                BrokerAddressError(
                    text: text, reason: "it is mqtt://HOST[:PORT]; a user goes in username and a password in password-file"))
        }
        let defaultPort = tls ? 8883 : 1883
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(BrokerAddressError(text: text, reason: "an IPv6 address is written [::1]"))
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    return .failure(BrokerAddressError(text: text, reason: "an IPv6 address is written [::1]:1883"))
                }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            guard authority.lastIndex(of: ":") == colon else {
                return .failure(BrokerAddressError(text: text, reason: "an IPv6 address is written [::1]:1883"))
            }
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(" ") else {
            return .failure(BrokerAddressError(text: text, reason: "the host is missing"))
        }
        var port = defaultPort
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                return .failure(BrokerAddressError(text: text, reason: "the port is a number from 1 to 65535"))
            }
            port = number
        }
        return .success(BrokerAddress(host: String(host), port: port, tls: tls))
    }

    public var description: String {
        (tls ? "mqtts://" : "mqtt://") + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
    }
}

/// Why a text is not a broker address.
public struct BrokerAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String
    public var reason: String

    public var description: String { "'\(text)' is not a broker address: \(reason)" }
}

/// The MQTT topics of rigs under one prefix: `<prefix>/<rig>/state` (retained
/// JSON, `{"online": false}` once the rig is gone), `<prefix>/<rig>/events`
/// (each report line), `<prefix>/<rig>/cmd` and `<prefix>/all/cmd` (commands).
public struct RigTopics: Hashable, Sendable {
    /// The name in `<prefix>/all/cmd`, which no rig may take.
    public static let everyRig = "all"

    /// The largest message read from any of these topics, in bytes (a
    /// rig's state or a report line is a few hundred); larger ones are dropped.
    public static let payloadLimit = 65536
    /// The most other rigs a rig keeps track of; states of more are ignored.
    public static let rigLimit = 256
    /// The most messages kept waiting for the rig's loop; more are dropped.
    public static let waitingLimit = 1024

    public var prefix: String

    public init(prefix: String = MQTTSpec.defaultPrefix) { self.prefix = prefix }

    /// What a topic is about.
    public enum Kind: String, Hashable, Sendable {
        case state, events, cmd
    }

    public func topic(_ kind: Kind, of rig: String) -> String { "\(prefix)/\(rig)/\(kind.rawValue)" }

    /// Commands for every rig.
    public var everyRigCommands: String { topic(.cmd, of: Self.everyRig) }

    /// The pattern matching `kind` of every rig.
    public func pattern(_ kind: Kind) -> String { "\(prefix)/+/\(kind.rawValue)" }

    /// The rig and kind of `topic`, when it is one of these topics.
    public func parse(_ topic: String) -> (rig: String, kind: Kind)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 2, let kind = Kind(rawValue: String(rest[1])) else { return nil }
        guard rest[0] == Self.everyRig || MQTTSpec.rigNameProblem(String(rest[0])) == nil else { return nil }
        return (String(rest[0]), kind)
    }

    /// Why `prefix` cannot be a topic prefix, or nil when it can.
    public static func prefixProblem(_ prefix: String) -> String? {
        let levels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard !prefix.isEmpty, prefix.utf8.count <= 64, levels.allSatisfy({ !$0.isEmpty }),
            !prefix.contains(where: { $0 == "+" || $0 == "#" || $0 == " " || $0.isNewline })
        else {
            return
                "a topic prefix is one or more levels such as slate or studio/slate, without +, #, spaces or empty levels, not '\(prefix)'"
        }
        return nil
    }
}

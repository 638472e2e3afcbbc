/// The sound card an ALSA device name is on, as far as the name tells:
/// `hw:CARD=USB,DEV=0`, `plughw:USB`, `hw:1,0` and `sysdefault:CARD=USB` name
/// cards; `default` is the default card. Two names on one card mean a sound
/// played on one is heard by a microphone of the other only through the air,
/// but a loopback or a headset's own mix makes it land in the capture too.
public enum ALSACard {
    /// The card's id or number, or `default`; nil for a name that does not say (a plugin of its own).
    public static func card(of device: String) -> String? {
        if device == "default" || device == "sysdefault" { return "default" }
        guard let colon = device.firstIndex(of: ":") else { return nil }
        let plugin = device[..<colon]
        guard ["hw", "plughw", "sysdefault", "front", "dsnoop", "dmix"].contains(plugin) else { return nil }
        let arguments = device[device.index(after: colon)...].split(separator: ",")
        for argument in arguments where argument.hasPrefix("CARD=") { return String(argument.dropFirst(5)) }
        return arguments.first.map(String.init).flatMap { $0.contains("=") ? nil : $0 }
    }

    /// Whether the two device names are on one card (the same name always is).
    public static func sameCard(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let first = card(of: a), let second = card(of: b) else { return false }
        return first == second
    }
}

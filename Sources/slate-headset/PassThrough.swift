/// AVRCP PASS THROUGH commands as a headset (an AVRCP controller) sends them
/// over AVCTP: one AVCTP packet holding one AV/C command for the panel subunit.
enum PassThrough {
    /// The AVCTP profile identifier of AV/C remote control (A/V Remote Control, 0x110E).
    static let profile: UInt16 = 0x110E

    /// Operation ids of the AV/C panel subunit, as headsets send them.
    static let operations: [String: UInt8] = [
        "VOLUME_UP": 0x41, "VOLUME_DOWN": 0x42, "MUTE": 0x43, "PLAY": 0x44, "STOP": 0x45, "PAUSE": 0x46,
        "RECORD": 0x47, "REWIND": 0x48, "FAST_FORWARD": 0x49, "FORWARD": 0x4B, "BACKWARD": 0x4C,
    ]

    /// The command for `operation` pressed (or released), with AVCTP transaction `label` (0...15).
    static func command(_ operation: UInt8, released: Bool, label: UInt8) -> [UInt8] {
        [
            // Transaction label, single packet, command, profile id valid.
            (label & 0x0F) << 4,
            UInt8(profile >> 8), UInt8(profile & 0xFF),
            // AV/C: CONTROL, panel subunit (type 9, id 0), PASS THROUGH.
            0x00, 0x48, 0x7C,
            operation | (released ? 0x80 : 0x00),
            // No operation data.
            0x00,
        ]
    }

    /// What the target answered, e.g. `accepted`, `not implemented`; nil for what is not an answer to `label`.
    static func answer(_ packet: [UInt8], label: UInt8) -> String? {
        guard packet.count >= 4, packet[0] >> 4 == label & 0x0F, packet[0] & 0x02 != 0 else { return nil }
        // A packet with the IPID bit set says the profile id is not served.
        if packet[0] & 0x01 != 0 { return "invalid profile" }
        switch packet[3] & 0x0F {
        case 0x08: return "not implemented"
        case 0x09: return "accepted"
        case 0x0A: return "rejected"
        case 0x0B: return "in transition"
        case 0x0C: return "implemented"
        case 0x0D: return "changed"
        case 0x0F: return "interim"
        case let code: return "response \(code)"
        }
    }
}

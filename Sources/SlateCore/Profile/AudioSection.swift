import SlateYAML

/// The `audio` section.
extension ProfileParser {
    static let sampleRates = [8000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 192_000]

    mutating func parseAudio(_ node: YAMLNode) -> AudioSpec {
        var audio = AudioSpec()
        guard let pairs = reader.mapping(node, "audio") else { return audio }
        reader.checkKeys(
            pairs, allowed: ["device", "channels", "rate", "codec", "bitrate", "gain-db", "enabled", "optional"], in: "audio")
        var rateNode: YAMLNode?
        for (key, _, value) in pairs {
            switch key {
            case "device":
                guard let name = reader.string(value, key) else { continue }
                if name.isEmpty || name.contains(where: { $0.isWhitespace }) {
                    reader.error(
                        value,
                        "audio.device must be an ALSA device name such as default or hw:CARD=USB,DEV=0, testtone or none, not '\(name)'"
                    )
                } else {
                    audio.device = AudioSpec.Device(name)
                }
            case "channels": audio.format.channels = reader.choice(value, key, [("1", 1), ("2", 2)]) ?? audio.format.channels
            case "rate":
                rateNode = value
                audio.format.rate =
                    reader.choice(value, key, Self.sampleRates.map { (String($0), $0) }) ?? audio.format.rate
            case "codec": audio.codec = reader.choice(value, key, AudioSpec.Codec.allCases.map { ($0.rawValue, $0) }) ?? .aac
            case "bitrate": audio.bitRate = parseBitRate(value)
            case "gain-db": audio.gainDB = reader.number(value, key, in: -40...40) ?? 0
            case "enabled": audio.enabled = reader.bool(value, key) ?? true
            case "optional": audio.optional = reader.bool(value, key) ?? false
            default: break
            }
        }
        if audio.codec == .opus, audio.format.rate != 48000 {
            reader.error(
                rateNode ?? node, "Opus records at 48000 Hz only, not \(audio.format.rate); use codec aac for other rates")
        }
        return audio
    }

    /// `128k`, `96000`: 16 to 512 kb/s.
    private mutating func parseBitRate(_ node: YAMLNode) -> Int? {
        guard let text = reader.string(node, "bitrate") else { return nil }
        let value = text.hasSuffix("k") ? Int(text.dropLast()).map { $0 * 1000 } : Int(text)
        guard let value, (16_000...512_000).contains(value) else {
            reader.error(node, "bitrate must be from 16k to 512k bits per second, such as 128k, not '\(text)'")
            return nil
        }
        return value
    }
}

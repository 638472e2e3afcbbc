/// One ALSA capture device (`slate audio`, and `--json`'s line for it): its
/// `hw:` name, its card, and the channels and standard rates it accepts.
public struct SoundDeviceLine: Codable, Hashable, Sendable {
    /// The name to open it by, `hw:CARD=<id>,DEV=<n>`.
    public var device: String
    /// The card's number, id and name: `0`, `Loopback`, `Loopback`.
    public var card: Int
    public var cardID: String
    public var cardName: String
    /// The PCM device's own name, e.g. `Loopback PCM`, `USB Audio`.
    public var name: String
    /// The fewest and most channels, nil when the device could not be asked (busy).
    public var minChannels: Int?
    public var maxChannels: Int?
    /// The standard rates (8000 to 192000 Hz) it accepts.
    public var rates: [Int]
    /// Another program holds every one of its subdevices.
    public var busy: Bool
    /// Why it could not be asked, when not busy.
    public var error: String?

    public init(
        device: String, card: Int, cardID: String, cardName: String, name: String, minChannels: Int? = nil,
        maxChannels: Int? = nil, rates: [Int] = [], busy: Bool = false, error: String? = nil
    ) {
        self.device = device
        self.card = card
        self.cardID = cardID
        self.cardName = cardName
        self.name = name
        self.minChannels = minChannels
        self.maxChannels = maxChannels
        self.rates = rates
        self.busy = busy
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case device, card, name, rates, busy, error
        case cardID = "card_id"
        case cardName = "card_name"
        case minChannels = "min_channels"
        case maxChannels = "max_channels"
    }

    /// The standard rates a capture device is asked about.
    public static let standardRates = [8000, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 192000]

    /// `1–32 channels`, `2 channels`, or `busy`.
    public var channelsText: String {
        if busy { return "busy" }
        guard let minChannels, let maxChannels else { return "-" }
        if minChannels == maxChannels { return "\(minChannels) channel\(minChannels == 1 ? "" : "s")" }
        return "\(minChannels)–\(maxChannels) channels"
    }

    /// `8000–192000 Hz` when it takes every standard rate between its lowest and
    /// highest, else the list, `44100, 48000 Hz`; `busy`, or `-` when there is none.
    public var ratesText: String {
        if busy { return "busy" }
        guard let low = rates.first, let high = rates.last else { return "-" }
        let standard = Self.standardRates.filter { $0 >= low && $0 <= high }
        if rates.count > 2 && standard == rates { return "\(low)–\(high) Hz" }
        return rates.map(String.init).joined(separator: ", ") + " Hz"
    }

    /// `hw:CARD=Loopback,DEV=0 (Loopback PCM, 1–32 channels, 8000–192000 Hz)`.
    public var summary: String {
        if busy { return "\(device) (\(name), busy)" }
        if let error { return "\(device) (\(name), \(error))" }
        return "\(device) (\(name), \(channelsText), \(ratesText))"
    }

    /// The error for a capture device that could not be found: `no capture device
    /// 'hw:CARD=X,DEV=0'; capture devices present: …` or `…; no capture devices are present`.
    public static func missing(_ device: String, reason: String? = nil, present: [SoundDeviceLine]) -> String {
        let why = reason.map { " (\($0))" } ?? ""
        guard !present.isEmpty else { return "no capture device '\(device)'\(why); no capture devices are present" }
        return "no capture device '\(device)'\(why); capture devices present: "
            + present.map(\.summary).joined(separator: ", ")
    }
}

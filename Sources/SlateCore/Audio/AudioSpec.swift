/// The `audio` section: the sound recorded with every take.
///
/// Without the section, takes are picture only, as `device: none` makes them.
public struct AudioSpec: Sendable, Equatable {
    /// Where the sound comes from.
    public enum Device: Sendable, Equatable, CustomStringConvertible {
        /// No sound: takes are picture only.
        case none
        /// A generated tone with a beep at each second of the monotonic clock:
        /// sound without a sound card (the demo, tests).
        case testTone
        /// An ALSA capture device: `default`, `hw:CARD=…,DEV=…`, `plughw:…`.
        case alsa(String)

        public var description: String {
            switch self {
            case .none: "none"
            case .testTone: "testtone"
            case .alsa(let name): name
            }
        }

        /// `none`, `testtone`, or an ALSA device name.
        public init(_ text: String) {
            switch text {
            case "none": self = .none
            case "testtone": self = .testTone
            default: self = .alsa(text)
            }
        }
    }

    /// The codecs a take's sound is stored in (MJPEG takes, stored as QuickTime, keep 16-bit PCM).
    public enum Codec: String, Sendable, CaseIterable {
        case aac, opus
    }

    public var device: Device = .alsa("default")
    public var format = AudioFormat(rate: 48000, channels: 2)
    public var codec: Codec = .aac
    /// Bits per second; nil: 64 kb/s per channel.
    public var bitRate: Int?
    /// Gain applied before encoding, in dB (clipping is counted before it, as the card delivered).
    public var gainDB: Double = 0
    /// false: like `device: none`, kept so a rig can switch sound off without losing its settings.
    public var enabled = true
    /// A missing device at start records picture-only takes with a warning instead of failing.
    public var optional = false

    public init() {}

    /// The device takes record from, or nil when they are picture only.
    public var source: Device? {
        guard enabled, device != .none else { return nil }
        return device
    }
}

extension AudioSpec {
    /// `spec` with its device given instead (`slate run --audio`); the
    /// defaults for the rest when the profile has no audio section.
    public static func device(_ device: String?, over spec: AudioSpec?) -> AudioSpec? {
        guard let device else { return spec }
        var given = spec ?? AudioSpec()
        given.device = AudioSpec.Device(device)
        return given
    }
}

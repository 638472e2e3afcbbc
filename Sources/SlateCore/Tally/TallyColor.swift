/// A tally light's colour, 0–255 a channel.
public struct TallyColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let red = TallyColor(red: 255, green: 0, blue: 0)
    public static let green = TallyColor(red: 0, green: 255, blue: 0)
    public static let blue = TallyColor(red: 0, green: 0, blue: 255)
    public static let amber = TallyColor(red: 255, green: 160, blue: 0)
    public static let white = TallyColor(red: 255, green: 255, blue: 255)

    /// The names a profile may use, and their colours.
    public static let named: [(name: String, color: TallyColor)] = [
        ("red", .red), ("green", .green), ("blue", .blue), ("amber", .amber),
        ("yellow", TallyColor(red: 255, green: 255, blue: 0)),
        ("white", .white), ("purple", TallyColor(red: 160, green: 0, blue: 255)),
        ("cyan", TallyColor(red: 0, green: 255, blue: 255)),
    ]

    /// A name from `named`, or `RRGGBB` in hex with or without `#` (YAML reads
    /// an unquoted ` #` as a comment, so a profile writes `on ff8000` or `"on #ff8000"`).
    public init?(_ text: String) {
        if let entry = Self.named.first(where: { $0.name == text }) {
            self = entry.color
            return
        }
        let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    public var description: String {
        if let entry = Self.named.first(where: { $0.color == self }) { return entry.name }
        return "#" + [red, green, blue].map { Hex.padded($0, 2) }.joined()
    }
}

/// What one output shows in one state: nothing, a steady light, or a light
/// that blinks (half a second on, half a second off, from the state's start).
public enum TallyPattern: Hashable, Sendable, CustomStringConvertible {
    case off
    case on(TallyColor)
    case blink(TallyColor)

    /// `off`, `on`, `blink`, each of the last two with a colour: `on red`,
    /// `blink amber`, `on #ff8000`; without one, `color`.
    public init?(_ text: String, color: TallyColor) {
        let words = text.split(separator: " ").map(String.init)
        guard let first = words.first, words.count <= 2 else { return nil }
        var lit = color
        if words.count == 2 {
            guard let named = TallyColor(words[1]) else { return nil }
            lit = named
        }
        switch first {
        case "off" where words.count == 1: self = .off
        case "on": self = .on(lit)
        case "blink": self = .blink(lit)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .off: "off"
        case .on(let color): "on \(color)"
        case .blink(let color): "blink \(color)"
        }
    }
}

/// What an output shows at an instant.
public enum TallyLight: Hashable, Sendable, CustomStringConvertible {
    case dark
    case lit(TallyColor)

    public var isLit: Bool { self != .dark }

    public var description: String {
        switch self {
        case .dark: "dark"
        case .lit(let color): "lit \(color)"
        }
    }
}

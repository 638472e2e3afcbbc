/// A one-time pairing code: six digits, good until `expires` (seconds since
/// 1970 on the wall clock, so `slate pair` and `slate run` agree on it), as
/// the state folder's `pairing-code` file holds it in one line.
public struct PairingCode: Equatable, Sendable {
    /// How many digits a code has.
    public static let digits = 6
    /// How long a code is good for, in seconds.
    public static let lifetime: Int64 = 300

    public var code: String
    public var expires: Int64

    public init(code: String, expires: Int64) {
        self.code = code
        self.expires = expires
    }

    /// A new code from a random number (the low digits of `random`), good
    /// for `lifetime` seconds from `now`.
    public init(random: UInt64, now: Int64) {
        let number = String(random % 1_000_000)
        code = String(repeating: "0", count: Self.digits - number.count) + number
        expires = now + Self.lifetime
    }

    /// `123456 1795000000`: the code and when it expires.
    public var line: String { "\(code) \(expires)" }

    /// The code in the file's line; nil for anything else.
    public static func parse(_ text: String) -> PairingCode? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, isCode(words[0]), let expires = Int64(words[1]) else { return nil }
        return PairingCode(code: String(words[0]), expires: expires)
    }

    /// Whether `text` has the shape of a code: six ASCII digits.
    public static func isCode(_ text: some StringProtocol) -> Bool {
        text.utf8.count == digits && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whole minutes left at `now`, rounded up: what `slate pair` shows.
    public func minutesLeft(now: Int64) -> Int64 { max(0, (expires - now + 59) / 60) }
}

/// A moment marked while a take records (`take.mark [NAME]`): where it is in
/// the take, in seconds from its first frame, to the millisecond; its name,
/// if it was given one; and that frame's timecode. Kept in `takes.json`, and
/// a chapter of every export the take goes into.
public struct TakeMarker: Codable, Hashable, Sendable {
    /// The most markers a take keeps.
    public static let limit = 1000
    /// The longest name, in characters, and in bytes of UTF-8.
    public static let nameLimit = 64
    public static let nameBytes = 200
    /// The furthest into a take a marker is read from a take list, in seconds (a week).
    public static let atLimit = 604_800.0

    public var at: Double
    public var name: String?
    public var timecode: String?

    public init(at: Duration, name: String?, timecode: String?) {
        self.at = at.inSeconds(decimals: 3)
        self.name = name
        self.timecode = timecode
    }

    /// Whether `name` can name a marker: 1 to 64 characters (200 bytes of
    /// UTF-8), none a control, format (bidi overrides, zero-width) or line separator character.
    public static func isName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= nameLimit, name.utf8.count <= nameBytes else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: true
            }
        }
    }

    /// Microseconds from the take's first frame, as `at` keeps them.
    public var microseconds: Int64 { Int64((at * 1_000_000).rounded()) }

    /// Whether a marker read from a take list is one Slate writes: `at` from 0 to a week, a name
    /// `isName` allows, a timecode of at most 11 characters.
    public var isValid: Bool {
        at.isFinite && at >= 0 && at <= Self.atLimit && (name.map(Self.isName) ?? true) && (timecode?.count ?? 0) <= 11
    }
}

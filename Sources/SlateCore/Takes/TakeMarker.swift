/// A moment marked while a take records (`take.mark [NAME]`): where it is in
/// the take, in seconds from its first frame, to the millisecond; its name,
/// if it was given one; and that frame's timecode. Kept in `takes.json`, and
/// a chapter of every export the take goes into.
public struct TakeMarker: Codable, Hashable, Sendable {
    /// The most markers a take keeps.
    public static let limit = 1000
    /// The longest name, in characters.
    public static let nameLimit = 64

    public var at: Double
    public var name: String?
    public var timecode: String?

    public init(at: Duration, name: String?, timecode: String?) {
        self.at = at.inSeconds(decimals: 3)
        self.name = name
        self.timecode = timecode
    }

    /// Whether `name` can name a marker: 1 to 64 characters, none of them a control character.
    public static func isName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= nameLimit && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f }
    }
}

/// Which finished take `take.delete` names: by its number now (a profile's
/// button: the list as the rig's user counts it at that moment), or by its
/// file name (the page and the API: a take deleted or exported meanwhile is
/// not mistaken for the one that took its number).
public enum TakeChoice: Hashable, Sendable, CustomStringConvertible {
    case number(Int)
    case file(String)

    /// The longest take file name taken.
    public static let fileLimit = 100

    /// `2`, or `take-20261121-103841-0003.mp4`; nil when `text` is neither a
    /// take number from 1 to `numberLimit` nor a take's file name.
    public static func parse(_ text: String, numberLimit: Int) -> TakeChoice? {
        if let number = Int(text) { return (1...numberLimit).contains(number) ? .number(number) : nil }
        guard text.hasPrefix("take-"), text.utf8.count <= fileLimit,
            text.utf8.allSatisfy({
                $0 < 0x80
                    && ($0 == 0x2D || $0 == 0x2E || $0 == 0x5F || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
                        || ($0 >= 0x30 && $0 <= 0x39))
            }),
            !text.contains("..")
        else { return nil }
        return .file(text)
    }

    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .file(let name): name
        }
    }
}

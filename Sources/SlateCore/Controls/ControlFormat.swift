/// A control's `format`: text with exactly one `%@` where the value goes, as
/// `AVCaptureSlider`'s localized value format has; `%%` is a percent sign.
public enum ControlFormat {
    /// What is wrong with `format`, naming the character position (from 1); nil when it is good.
    public static func problem(_ format: String) -> String? {
        var places: [Int] = []
        var characters = Array(format)[...]
        var position = 1
        while let character = characters.popFirst() {
            defer { position += 1 }
            guard character == "%" else { continue }
            switch characters.popFirst() {
            case "@": places.append(position)
            case "%": break
            case let other?: return "format may hold only %@ and %%, not '%\(other)' at position \(position)"
            case nil: return "format ends with a lone '%' at position \(position)"
            }
            position += 1
        }
        switch places.count {
        case 1: return nil
        case 0: return "format needs one %@ where the value goes"
        default:
            return
                "format needs exactly one %@, not \(places.count) (at positions \(places.map(String.init).joined(separator: ", ")))"
        }
    }

    /// `format` with `value` in place of `%@` and `%%` as `%`.
    public static func render(_ format: String, _ value: String) -> String {
        var out = ""
        var characters = Array(format)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                out.append(character)
                continue
            }
            switch characters.popFirst() {
            case "@": out += value
            case let other?: out.append(other)
            case nil: out.append("%")
            }
        }
        return out
    }
}

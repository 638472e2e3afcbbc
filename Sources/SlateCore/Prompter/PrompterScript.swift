/// A script as the prompter shows it: its text wrapped at the profile's width,
/// word by word, into lines every screen shows the same. Markdown headings
/// (`# Title`) become heading lines; emphasis marks (`**`, `__`, `*`, backticks) are dropped; a blank line
/// stays blank.
public struct PrompterScript: Codable, Equatable, Sendable {
    public struct Line: Codable, Equatable, Sendable {
        public var text: String
        public var heading: Bool

        public init(text: String, heading: Bool = false) {
            self.text = text
            self.heading = heading
        }
    }

    public var lines: [Line]

    public init(text: String, width: Int) {
        var lines: [Line] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = String(raw).trimmingSpaces
            var heading = false
            if line.hasPrefix("#") {
                heading = true
                line = String(line.drop { $0 == "#" }).trimmingSpaces
            }
            line = Self.withoutEmphasis(line)
            if line.isEmpty {
                lines.append(Line(text: ""))
                continue
            }
            lines += Self.wrap(line, width: width).map { Line(text: $0, heading: heading) }
        }
        while lines.last?.text.isEmpty == true { lines.removeLast() }
        self.lines = lines
    }

    /// The script's length in points for `spec`'s lines.
    public func length(_ spec: PrompterSpec) -> Double { Double(lines.count) * spec.lineHeight }

    /// Words onto lines of at most `width` characters; a longer word is cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if current.isEmpty {
                current = String(word)
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// `**bold**`, `__bold__`, `*em*` and `` `code` `` marks taken out.
    static func withoutEmphasis(_ line: String) -> String {
        var text = line
        for mark in ["**", "__", "*", "`"] { text = text.replacing(mark, with: "") }
        return text
    }
}

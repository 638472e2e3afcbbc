/// A script as the prompter shows it: its text wrapped at the profile's width,
/// word by word, into lines every screen shows the same. Markdown headings
/// (`# Title`) become heading lines; emphasis marks (`**`, `__`, `*`, backticks) are dropped; a blank line
/// stays blank. A cue begins at each heading and at each `---` line (shown as a
/// rule); a heading just after a `---` line (blank lines between) is that cue's title.
public struct PrompterScript: Codable, Equatable, Sendable {
    public struct Line: Codable, Equatable, Sendable {
        public var text: String
        public var heading: Bool
        /// A cue begins here.
        public var cue: Bool

        public init(text: String, heading: Bool = false, cue: Bool = false) {
            self.text = text
            self.heading = heading
            self.cue = cue
        }
    }

    public var lines: [Line]
    /// The most cues a script has (every screen is told where each begins):
    /// a cue every 15 seconds of a two-hour talk. Marks past them are blank lines, headings past them plain headings.
    public static let cueLimit = 500
    /// The lines cues begin at, from 0.
    public var cues: [Int]
    /// The source text's fingerprint (`PrompterScript.version(of:)`): a screen
    /// showing another version reads the script again.
    public var version: String

    public init(text: String, width: Int) {
        var lines: [Line] = []
        // Whether the last line that was not blank was a `---` cue mark.
        var afterMark = false
        var cueCount = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = String(raw).trimmingSpaces
            if Self.isCueMark(line) {
                lines.append(Line(text: "", cue: cueCount < Self.cueLimit))
                cueCount += 1
                afterMark = true
                continue
            }
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
            let cue = heading && !afterMark && cueCount < Self.cueLimit
            if cue { cueCount += 1 }
            afterMark = false
            for (index, text) in Self.wrap(line, width: width).enumerated() {
                lines.append(Line(text: text, heading: heading, cue: cue && index == 0))
            }
        }
        while lines.last?.text.isEmpty == true && lines.last?.cue == false { lines.removeLast() }
        self.lines = lines
        cues = lines.indices.filter { lines[$0].cue }
        version = Self.version(of: text)
    }

    /// The script's length in points for `spec`'s lines.
    public func length(_ spec: PrompterSpec) -> Double { Double(lines.count) * spec.lineHeight }

    /// Where each cue begins, in points for `spec`'s lines.
    public func cuePoints(_ spec: PrompterSpec) -> [Double] { cues.map { Double($0) * spec.lineHeight } }

    /// A fingerprint of `text` (FNV-1a, 64 bits, in hex): the same text gives the same version on every run.
    public static func version(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A Markdown thematic break: three or more `-`, `*` or `_` and nothing else but spaces.
    static func isCueMark(_ line: String) -> Bool {
        let marks = line.filter { $0 != " " }
        guard marks.count >= 3, let first = marks.first, "-*_".contains(first) else { return false }
        return marks.allSatisfy { $0 == first }
    }

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

/// An XML element to write: its name, its attributes in order, and its text
/// or its children. `document` writes it as a file, a child a line, indented;
/// text and attribute values are escaped, and text holding a control
/// character, which XML cannot hold, is refused.
public struct XMLTree: Sendable {
    public var name: String
    public var attributes: [(name: String, value: String)]
    public var text: String?
    public var children: [XMLTree]

    /// `name` with `attributes` (those without a value left out), and `text` or `children`.
    public init(
        _ name: String, _ attributes: KeyValuePairs<String, String?> = [:], text: String? = nil,
        _ children: [XMLTree] = []
    ) {
        self.name = name
        self.attributes = attributes.compactMap { name, value in value.map { (name, $0) } }
        self.text = text
        self.children = children
    }

    /// The element as an XML file in UTF-8: the declaration, `<!DOCTYPE doctype>` when given, then the element.
    public func document(doctype: String? = nil) throws(XMLTextError) -> String {
        var file = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + (doctype.map { "<!DOCTYPE \($0)>\n" } ?? "")
        try write(to: &file, indent: "")
        return file
    }

    private func write(to file: inout String, indent: String) throws(XMLTextError) {
        file += indent + "<" + name
        for (name, value) in attributes { file += " \(name)=\"\(try Self.escaped(value))\"" }
        if let text {
            file += ">\(try Self.escaped(text))</\(name)>\n"
        } else if children.isEmpty {
            file += "/>\n"
        } else {
            file += ">\n"
            for child in children { try child.write(to: &file, indent: indent + "  ") }
            file += indent + "</\(name)>\n"
        }
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` written as entities; refused
    /// when it holds a control character (tab and line ends included) or U+FFFE, U+FFFF.
    public static func escaped(_ text: String) throws(XMLTextError) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": throw XMLTextError(text: text)
            default:
                guard scalar.properties.generalCategory != .control else { throw XMLTextError(text: text) }
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// Text an XML file cannot hold: it has a control character.
public struct XMLTextError: Error, Hashable, Sendable, CustomStringConvertible {
    public var text: String

    /// `'cam\u{7}a' has a control character, which XML cannot hold`.
    public var description: String { "'\(TerminalText.safe(text))' has a control character, which XML cannot hold" }
}

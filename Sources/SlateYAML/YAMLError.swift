/// Why a text is not a YAML document Slate reads: libyaml's own reason and
/// place, a key given twice, or a budget of `YAMLLimits` passed.
public struct YAMLError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The bytes are not text (libyaml's reader: invalid UTF-8, a control character).
        case reader
        /// libyaml's scanner or parser: the text breaks YAML's grammar.
        case scanner, parser
        /// An alias to an anchor not defined before it, or a second document.
        case composer
        /// The same key twice in one mapping (`keys` names them).
        case duplicateKeys([String])
        /// An alias (`*name`) where the reader allows none.
        case alias
        /// Nested deeper, or holding more nodes (aliases counted as copies), than the limits allow.
        case tooDeep, tooLarge
        /// libyaml could not allocate memory.
        case memory
    }

    public var kind: Kind
    /// What is wrong, in libyaml's words for its own errors.
    public var problem: String
    /// What libyaml was reading when it failed ("while parsing a flow sequence"), when it says.
    public var context: String?
    public var mark: YAMLNode.Mark

    public init(_ kind: Kind, _ problem: String, context: String? = nil, at mark: YAMLNode.Mark) {
        self.kind = kind
        self.problem = problem
        self.context = context
        self.mark = mark
    }

    public var description: String {
        "line \(mark.line), column \(mark.column): \(problem)" + (context.map { " (\($0))" } ?? "")
    }
}

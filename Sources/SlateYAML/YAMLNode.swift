/// A node of a composed YAML document: a scalar, a mapping or a sequence,
/// each with where it was written.
public indirect enum YAMLNode: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    /// A place in the text: line and column from 1, columns in Unicode scalars (libyaml's count).
    public struct Mark: Sendable, Equatable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// How a scalar was written; only a plain one can mean null.
    public enum Style: Sendable, Equatable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// A scalar's text, as written (no tag is resolved: numbers and booleans are read by whoever reads the tree).
    public struct Scalar: Sendable {
        public var string: String
        public var style: Style
        public var mark: Mark?

        public init(_ string: String, _ style: Style = .plain, _ mark: Mark? = nil) {
            self.string = string
            self.style = style
            self.mark = mark
        }
    }

    /// A mapping's pairs, in the order written.
    public struct Mapping: Sendable, RandomAccessCollection {
        public var pairs: [(key: YAMLNode, value: YAMLNode)]
        public var mark: Mark?

        public init(_ pairs: [(key: YAMLNode, value: YAMLNode)], _ mark: Mark? = nil) {
            self.pairs = pairs
            self.mark = mark
        }

        public var startIndex: Int { pairs.startIndex }
        public var endIndex: Int { pairs.endIndex }
        public subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { pairs[position] }

        /// The value of the first pair whose key is the scalar `key`.
        public subscript(key: String) -> YAMLNode? {
            pairs.first { $0.key.string == key }?.value
        }
    }

    /// A sequence's items, in order.
    public struct Sequence: Sendable, RandomAccessCollection {
        public var items: [YAMLNode]
        public var mark: Mark?

        public init(_ items: [YAMLNode], _ mark: Mark? = nil) {
            self.items = items
            self.mark = mark
        }

        public var startIndex: Int { items.startIndex }
        public var endIndex: Int { items.endIndex }
        public subscript(position: Int) -> YAMLNode { items[position] }
    }

    /// Where the node starts.
    public var mark: Mark? {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }

    /// The node as a scalar; nil for a mapping or a sequence.
    public var scalar: Scalar? {
        guard case .scalar(let scalar) = self else { return nil }
        return scalar
    }

    /// A scalar's text; nil for a mapping or a sequence.
    public var string: String? { scalar?.string }
}

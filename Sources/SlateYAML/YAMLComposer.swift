import CYAML

/// The budgets a composed document keeps: how deep it nests, how many nodes
/// it holds and how many bytes of text its scalars hold, an alias counted as
/// a copy of what it names (so a few lines of aliases to aliases, or to one
/// long text, cannot expand into millions of nodes or gigabytes).
public struct YAMLLimits: Sendable {
    public var depth: Int
    public var nodes: Int
    public var bytes: Int
    public var aliases: Bool

    public init(depth: Int = 64, nodes: Int = 100_000, bytes: Int = 4 << 20, aliases: Bool = true) {
        self.depth = depth
        self.nodes = nodes
        self.bytes = bytes
        self.aliases = aliases
    }
}

/// Composes one YAML document into a tree of `YAMLNode` from libyaml's
/// events: scalars keep their text and style (no tag is resolved), mappings
/// their order; a key given twice, a second document, and a tree past its
/// `YAMLLimits` are errors.
public enum YAMLComposer {
    /// The document's root; nil for a text with no document (empty, or only comments).
    public static func compose(_ text: String, limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> YAMLNode? {
        var text = text
        let result: Result<YAMLNode?, YAMLError> = text.withUTF8 { bytes in
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            defer { parser.deallocate() }
            guard yaml_parser_initialize(parser) == 1 else {
                return .failure(YAMLError(.memory, "libyaml could not start", at: .init(line: 1, column: 1)))
            }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
            var composer = Composition(parser: parser, input: bytes, limits: limits)
            do throws(YAMLError) {
                return .success(try composer.document())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// One composition's state: the parser, the anchors seen, the nodes counted.
private struct Composition {
    /// What a node costs the budgets: its nodes, its scalars' bytes and its
    /// depth (an alias's copy costs them again).
    struct Cost {
        var nodes = 1
        var bytes = 0
        var depth = 1

        /// Adds a child's cost: its nodes and bytes, and one level above its depth.
        mutating func hold(_ child: Cost) {
            nodes += child.nodes
            bytes += child.bytes
            depth = max(depth, child.depth + 1)
        }
    }

    /// A node composed, with its cost.
    struct Composed {
        var node: YAMLNode
        var cost: Cost
    }

    let parser: UnsafeMutablePointer<yaml_parser_t>
    let input: UnsafeBufferPointer<UInt8>
    let limits: YAMLLimits
    var anchors: [String: Composed] = [:]
    var nodes = 0
    var scalarBytes = 0

    init(parser: UnsafeMutablePointer<yaml_parser_t>, input: UnsafeBufferPointer<UInt8>, limits: YAMLLimits) {
        self.parser = parser
        self.input = input
        self.limits = limits
    }

    mutating func document() throws(YAMLError) -> YAMLNode? {
        var event = try next()
        defer { yaml_event_delete(&event) }
        guard event.type == YAML_STREAM_START_EVENT else { throw unexpected(event) }
        var start = try next()
        defer { yaml_event_delete(&start) }
        if start.type == YAML_STREAM_END_EVENT { return nil }
        guard start.type == YAML_DOCUMENT_START_EVENT else { throw unexpected(start) }
        var first = try next()
        defer { yaml_event_delete(&first) }
        let root = try node(from: &first, depth: 1).node
        var end = try next()
        defer { yaml_event_delete(&end) }
        guard end.type == YAML_DOCUMENT_END_EVENT else { throw unexpected(end) }
        var after = try next()
        defer { yaml_event_delete(&after) }
        guard after.type == YAML_STREAM_END_EVENT else {
            throw YAMLError(
                .composer, "a second document: a file holds one", context: nil, at: Self.mark(after.start_mark))
        }
        return root
    }

    mutating func node(from event: inout yaml_event_t, depth: Int) throws(YAMLError) -> Composed {
        let mark = Self.mark(event.start_mark)
        switch event.type {
        case YAML_ALIAS_EVENT:
            let name = Self.text(event.data.alias.anchor)
            guard limits.aliases else {
                throw YAMLError(.alias, "an alias ('*\(name)'), which this file may not hold", at: mark)
            }
            guard let anchored = anchors[name] else {
                throw YAMLError(.composer, "found undefined alias '\(name)'", at: mark)
            }
            try count(anchored.cost.nodes, bytes: anchored.cost.bytes, depth: depth - 1 + anchored.cost.depth, at: mark)
            return anchored
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            try count(1, bytes: scalar.length, depth: depth, at: mark)
            let value = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let composed = Composed(
                node: .scalar(.init(value, Self.style(scalar.style), mark)), cost: Cost(bytes: scalar.length))
            remember(composed, anchor: scalar.anchor)
            return composed
        case YAML_SEQUENCE_START_EVENT:
            try count(1, bytes: 0, depth: depth, at: mark)
            var items: [YAMLNode] = []
            var cost = Cost()
            while true {
                var item = try next()
                defer { yaml_event_delete(&item) }
                if item.type == YAML_SEQUENCE_END_EVENT { break }
                let composed = try node(from: &item, depth: depth + 1)
                items.append(composed.node)
                cost.hold(composed.cost)
            }
            let composed = Composed(node: .sequence(.init(items, mark)), cost: cost)
            remember(composed, anchor: event.data.sequence_start.anchor)
            return composed
        case YAML_MAPPING_START_EVENT:
            try count(1, bytes: 0, depth: depth, at: mark)
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            /// Where each scalar key first stands, and whether it came again.
            var keys: [String: (mark: YAMLNode.Mark, again: Bool)] = [:]
            var duplicates: [String] = []
            var cost = Cost()
            while true {
                var keyEvent = try next()
                defer { yaml_event_delete(&keyEvent) }
                if keyEvent.type == YAML_MAPPING_END_EVENT { break }
                let key = try node(from: &keyEvent, depth: depth + 1)
                var valueEvent = try next()
                defer { yaml_event_delete(&valueEvent) }
                let value = try node(from: &valueEvent, depth: depth + 1)
                if let name = key.node.string, let keyMark = key.node.mark {
                    if let first = keys[name] {
                        if !first.again { duplicates.append(name) }
                        keys[name]?.again = true
                    } else {
                        keys[name] = (keyMark, false)
                    }
                }
                pairs.append((key.node, value.node))
                cost.hold(key.cost)
                cost.hold(value.cost)
            }
            if let first = duplicates.first, let duplicateMark = keys[first]?.mark {
                let shown = Self.listedKeys
                var names = duplicates.prefix(shown).map { "'\($0.prefix(80))'" }.joined(separator: ", ")
                if duplicates.count > shown { names += " and \(duplicates.count - shown) more" }
                throw YAMLError(.duplicateKeys(duplicates), "\(names) given twice in one mapping", at: duplicateMark)
            }
            let composed = Composed(node: .mapping(.init(pairs, mark)), cost: cost)
            remember(composed, anchor: event.data.mapping_start.anchor)
            return composed
        default:
            throw unexpected(event)
        }
    }

    /// The most duplicated keys an error names.
    static let listedKeys = 5

    /// Counts `added` nodes holding `text` bytes reaching `depth`, refusing a tree past the limits.
    mutating func count(_ added: Int, bytes text: Int, depth: Int, at mark: YAMLNode.Mark) throws(YAMLError) {
        guard depth <= limits.depth else {
            throw YAMLError(.tooDeep, "nested more than \(limits.depth) levels deep", at: mark)
        }
        let copies = limits.aliases ? " (an alias counts as a copy of what it names)" : ""
        nodes += added
        guard nodes <= limits.nodes else {
            throw YAMLError(.tooLarge, "more than \(limits.nodes) nodes\(copies)", at: mark)
        }
        scalarBytes += text
        guard scalarBytes <= limits.bytes else {
            throw YAMLError(.tooLarge, "more than \(limits.bytes) bytes of text\(copies)", at: mark)
        }
    }

    mutating func remember(_ composed: Composed, anchor: UnsafeMutablePointer<yaml_char_t>?) {
        guard let anchor else { return }
        anchors[Self.text(anchor)] = composed
    }

    /// The next event; libyaml's error, with its place, when the text breaks.
    mutating func next() throws(YAMLError) -> yaml_event_t {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw failure() }
        return event
    }

    func failure() -> YAMLError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? "unreadable YAML"
        let context = state.context.map { String(cString: $0) }
        switch state.error {
        case YAML_READER_ERROR:
            return YAMLError(.reader, problem, at: offsetMark(state.problem_offset))
        case YAML_SCANNER_ERROR:
            return YAMLError(.scanner, problem, context: context, at: Self.mark(state.problem_mark))
        case YAML_PARSER_ERROR:
            return YAMLError(.parser, problem, context: context, at: Self.mark(state.problem_mark))
        default:
            return YAMLError(.memory, "libyaml ran out of memory", at: Self.mark(state.problem_mark))
        }
    }

    func unexpected(_ event: yaml_event_t) -> YAMLError {
        YAMLError(.composer, "an unexpected event (\(event.type.rawValue)) from libyaml", at: Self.mark(event.start_mark))
    }

    /// The line and column (in Unicode scalars) of a byte offset (a reader error gives only that).
    func offsetMark(_ offset: Int) -> YAMLNode.Mark {
        var line = 1
        var column = 1
        for index in 0..<min(offset, input.count) {
            if input[index] == 0x0A {
                line += 1
                column = 1
            } else if input[index] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return YAMLNode.Mark(line: line, column: column)
    }

    static func mark(_ mark: yaml_mark_t) -> YAMLNode.Mark {
        YAMLNode.Mark(line: mark.line + 1, column: mark.column + 1)
    }

    static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> String {
        String(cString: pointer)
    }

    static func style(_ style: yaml_scalar_style_t) -> YAMLNode.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}

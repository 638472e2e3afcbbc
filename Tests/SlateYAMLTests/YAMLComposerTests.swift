import SlateYAML
import Testing

/// The tree libyaml's events compose into, and each budget at its edge.
@Suite struct YAMLComposerTests {
    func compose(_ text: String, _ limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> YAMLNode? {
        try YAMLComposer.compose(text, limits: limits)
    }

    func failure(_ text: String, _ limits: YAMLLimits = YAMLLimits()) -> YAMLError? {
        do {
            _ = try compose(text, limits)
            return nil
        } catch {
            return error
        }
    }

    /// A mapping holding `count` nested flow sequences around one scalar: `count` + 2 levels.
    func nested(_ count: Int) -> String {
        "a: " + String(repeating: "[", count: count) + "x" + String(repeating: "]", count: count)
    }

    @Test func mappingsKeepTheirOrderAndEveryNodeItsPlace() throws {
        let root = try #require(try compose("name: pedal\nkeys:\n  - KEY_A\n  - 'KEY_B'\nempty:\n"))
        guard case .mapping(let top) = root else { Issue.record("not a mapping: \(root)"); return }
        #expect(top.map { $0.key.string } == ["name", "keys", "empty"])
        #expect(top.mark == YAMLNode.Mark(line: 1, column: 1))
        #expect(top["name"]?.string == "pedal")
        guard case .sequence(let keys)? = top["keys"] else { Issue.record("keys is not a sequence"); return }
        #expect(keys.map(\.string) == ["KEY_A", "KEY_B"])
        #expect(keys.map(\.mark) == [YAMLNode.Mark(line: 3, column: 5), YAMLNode.Mark(line: 4, column: 5)])
        #expect(keys.map { $0.scalar?.style } == [.plain, .singleQuoted])
        #expect(top["empty"]?.string == "")
        #expect(top["missing"] == nil)
    }

    @Test func scalarsStayTextWithTheirStyle() throws {
        let root = try #require(try compose("a: 0x10\nb: \"yes\"\nc: |\n  two\n  lines\nd: >\n  folded\n  text\n"))
        guard case .mapping(let top) = root else { Issue.record("not a mapping"); return }
        #expect(top.map { $0.value.string } == ["0x10", "yes", "two\nlines\n", "folded text\n"])
        #expect(top.map { $0.value.scalar?.style } == [.plain, .doubleQuoted, .literal, .folded])
    }

    @Test func noDocumentIsNil() throws {
        #expect(try compose("") == nil)
        #expect(try compose("# only a comment\n") == nil)
    }

    @Test func aSecondDocumentIsRefused() {
        let error = failure("a: 1\n---\nb: 2\n")
        #expect(error?.kind == .composer)
        #expect(error?.mark.line == 2)
    }

    @Test func libyamlsErrorsKeepItsWordsAndPlace() {
        let error = failure("inputs: [a, b")
        #expect(error?.kind == .parser)
        #expect(error?.problem == "did not find expected ',' or ']'")
        #expect(error?.context == "while parsing a flow sequence")
        #expect(error?.mark == YAMLNode.Mark(line: 2, column: 1))
    }

    @Test func aControlCharacterIsAReaderErrorOnItsLine() {
        let error = failure("a: 1\nb: \u{1}\n")
        #expect(error?.kind == .reader)
        #expect(error?.mark == YAMLNode.Mark(line: 2, column: 4))
    }

    @Test func aKeyGivenTwiceIsRefusedWhereItFirstStands() {
        let error = failure("a: 1\nb: 2\na: 3\nb: 4\n")
        #expect(error?.kind == .duplicateKeys(["a", "b"]))
        #expect(error?.problem == "'a', 'b' given twice in one mapping")
        #expect(error?.mark == YAMLNode.Mark(line: 1, column: 1))
    }

    @Test func nestingStopsAtTheDepthLimit() throws {
        let limits = YAMLLimits(depth: 8)
        #expect(try compose(nested(6), limits) != nil)
        let error = failure(nested(7), limits)
        #expect(error?.kind == .tooDeep)
        #expect(error?.mark == YAMLNode.Mark(line: 1, column: 11))
        #expect(error?.problem == "nested more than 8 levels deep")
    }

    @Test func aDocumentNestedFarPastTheLimitIsRefusedNotOverflowed() {
        #expect(failure(nested(200_000))?.kind == .tooDeep)
    }

    @Test func nodesStopAtTheNodeLimit() throws {
        let items = (1...8).map { "- \($0)" }.joined(separator: "\n")
        #expect(try compose(items, YAMLLimits(nodes: 9)) != nil)
        #expect(failure(items, YAMLLimits(nodes: 8))?.kind == .tooLarge)
    }

    @Test func aliasesAreCopiesOfWhatTheyName() throws {
        let root = try #require(try compose("base: &b {name: pedal}\ncopy: *b\n"))
        guard case .mapping(let top) = root, case .mapping(let copy)? = top["copy"] else {
            Issue.record("copy is not a mapping")
            return
        }
        #expect(copy["name"]?.string == "pedal")
    }

    @Test func aliasesToAliasesCannotExplode() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for level in 1...9 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]")
        }
        let error = failure(lines.joined(separator: "\n"))
        #expect(error?.kind == .tooLarge)
        #expect(error?.mark.line == 5)
    }

    @Test func anAliasCountsTheDepthOfWhatItNames() {
        let text = "deep: &d [[[[x]]]]\nhere: [[[*d]]]\n"
        #expect(failure(text, YAMLLimits(depth: 8))?.kind == .tooDeep)
        #expect(failure(text, YAMLLimits(depth: 9)) == nil)
    }

    @Test func aliasesToALongTextCountItsBytesEachTime() throws {
        let text =
            "long: &t " + String(repeating: "z", count: 1000) + "\nmany: ["
            + Array(repeating: "*t", count: 9).joined(separator: ", ") + "]\n"
        #expect(try compose(text, YAMLLimits(bytes: 10_008)) != nil)
        let error = failure(text, YAMLLimits(bytes: 10_007))
        #expect(error?.kind == .tooLarge)
        #expect(error?.problem == "more than 10007 bytes of text (an alias counts as a copy of what it names)")
        #expect(error?.mark == YAMLNode.Mark(line: 2, column: 40))
    }

    @Test func manyKeysGivenTwiceAreNamedFiveAtMost() {
        let keys = (1...2000).map { "k\($0): 1" }
        let error = failure((keys + keys).joined(separator: "\n"))
        #expect(error?.problem == "'k1', 'k2', 'k3', 'k4', 'k5' and 1995 more given twice in one mapping")
        if case .duplicateKeys(let names)? = error?.kind {
            #expect(names.count == 2000)
        } else {
            Issue.record("\(String(describing: error))")
        }
    }

    @Test func aReaderErrorsColumnCountsCharactersNotBytes() {
        let error = failure("a: 1\nbé: \u{1}\n")
        #expect(error?.kind == .reader)
        #expect(error?.mark == YAMLNode.Mark(line: 2, column: 5))
    }

    @Test func aliasesAreRefusedWhereTheLimitsSaySo() {
        let error = failure("a: &x 1\nb: *x\n", YAMLLimits(aliases: false))
        #expect(error?.kind == .alias)
        #expect(error?.mark == YAMLNode.Mark(line: 2, column: 4))
        #expect(failure("b: *nowhere\n")?.kind == .composer)
    }
}

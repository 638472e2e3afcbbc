import SlateCore
import Testing

/// XML files as Slate writes them: a child a line, indented; attributes in
/// order, those without a value left out; the five special characters escaped;
/// control characters refused.
@Suite struct XMLTreeTests {
    @Test func aTreeIsWrittenIndentedWithItsAttributesInOrder() throws {
        let tree = XMLTree(
            "mlt", ["title": "Shoot", "root": nil, "LC_NUMERIC": "C"],
            [XMLTree("property", ["name": "resource"], text: "/a b.mp4"), XMLTree("tractor", [:], [XMLTree("track")])])
        #expect(
            try tree.document(doctype: "mlt") == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE mlt>
                <mlt title="Shoot" LC_NUMERIC="C">
                  <property name="resource">/a b.mp4</property>
                  <tractor>
                    <track/>
                  </tractor>
                </mlt>

                """)
    }

    @Test func specialCharactersAreEscapedInTextAndAttributes() throws {
        let text = try XMLTree("marker", ["value": #"Tom & "Jerry" <'s>"#], text: "1 < 2 & 3 > 2").document()
        #expect(
            text.hasSuffix(
                #"<marker value="Tom &amp; &quot;Jerry&quot; &lt;&apos;s&gt;">1 &lt; 2 &amp; 3 &gt; 2</marker>"# + "\n"))
        #expect(try XMLTree.escaped("café ✓ 🎬") == "café ✓ 🎬")
    }

    @Test func controlCharactersAreRefused() {
        for text in ["a\u{0}b", "tab\there", "line\nend", "escape\u{1B}[2J", "c1\u{85}", "not\u{FFFE}"] {
            #expect(throws: XMLTextError.self) { try XMLTree("a", ["name": text]).document() }
            #expect(throws: XMLTextError.self) { try XMLTree("a", text: text).document() }
        }
        let error = #expect(throws: XMLTextError.self) { try XMLTree.escaped("cam\u{7}a") }
        #expect(error?.description == #"'cam\u{7}a' has a control character, which XML cannot hold"#)
    }
}

import Foundation
import Testing

@testable import SlateCore

@Suite struct TranscriptTests {
    static let folder = Bundle.module.url(forResource: "Fixtures/transcripts", withExtension: nil)!

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".transcript") }.sorted()
    }

    @Test func thereAreTranscripts() {
        #expect(Self.names.count >= 20)
    }

    @Test(arguments: names)
    func transcript(_ name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let transcript = try Transcript(name: name, text: text)
        let actual = try transcript.run()
        #expect(!transcript.expected.isEmpty || actual.isEmpty, "\(name) expects nothing")
        Transcript.compare(name, expected: transcript.expected, actual: actual)
    }
}

import Foundation
import Testing

@testable import SlateCore

/// The golden transcripts of the machines beside the rig's: a rig on a
/// broker (`NetworkTranscript`), the take pipeline's decisions (`TakeFlowTranscript`),
/// pairing a browser (`PairingTranscript`) and the tally lights (`TallyTranscript`).
@Suite struct MachineTranscriptTests {
    static func names(in folder: String, ending: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return files.filter { $0.hasSuffix(ending) }.sorted()
    }

    static func url(_ folder: String) -> URL { Bundle.module.url(forResource: "Fixtures/\(folder)", withExtension: nil)! }

    static func text(_ name: String, in folder: String) throws -> String {
        try String(contentsOf: url(folder).appendingPathComponent(name), encoding: .utf8)
    }

    static let networkNames = names(in: "network-transcripts", ending: ".nettranscript")
    static let flowNames = names(in: "take-flow-transcripts", ending: ".flowtranscript")
    static let pairingNames = names(in: "pairing-transcripts", ending: ".pairtranscript")
    static let tallyNames = names(in: "tally-transcripts", ending: ".tallytranscript")

    @Test func thereAreTranscripts() {
        #expect(Self.networkNames.count >= 7)
        #expect(Self.flowNames.count >= 4)
        #expect(Self.pairingNames.count >= 3)
        #expect(Self.tallyNames.count >= 3)
    }

    @Test(arguments: networkNames)
    func network(_ name: String) throws {
        let transcript = try NetworkTranscript(name: name, text: Self.text(name, in: "network-transcripts"))
        #expect(!transcript.expected.isEmpty, "\(name) expects nothing")
        Transcript.compare(name, expected: transcript.expected, actual: try transcript.run())
    }

    @Test(arguments: flowNames)
    func flow(_ name: String) throws {
        let transcript = try TakeFlowTranscript(name: name, text: Self.text(name, in: "take-flow-transcripts"))
        #expect(!transcript.expected.isEmpty, "\(name) expects nothing")
        Transcript.compare(name, expected: transcript.expected, actual: try transcript.run())
    }

    @Test(arguments: pairingNames)
    func pairing(_ name: String) throws {
        let transcript = try PairingTranscript(name: name, text: Self.text(name, in: "pairing-transcripts"))
        #expect(!transcript.expected.isEmpty, "\(name) expects nothing")
        Transcript.compare(name, expected: transcript.expected, actual: transcript.run())
    }

    @Test(arguments: tallyNames)
    func tally(_ name: String) throws {
        let transcript = try TallyTranscript(name: name, text: Self.text(name, in: "tally-transcripts"))
        #expect(!transcript.expected.isEmpty, "\(name) expects nothing")
        Transcript.compare(name, expected: transcript.expected, actual: try transcript.run())
    }
}

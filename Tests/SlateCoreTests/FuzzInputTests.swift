import Foundation
import SlateCore
import Testing

/// The inputs each fuzz target starts from (its seeds in `Fuzz/Corpus/TARGET`) and
/// the ones it once crashed on (`Fixtures/fuzz-regressions/TARGET`), run through
/// the target's own checks: every one parses or fails with a clean error.
@Suite struct FuzzInputTests {
    /// A file a fuzz target runs on, named `FOLDER/FILE`.
    struct Input {
        var name: String
        var bytes: [UInt8]
        /// The bytes as the fuzz targets read them: invalid UTF-8 becomes U+FFFD.
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The seeds and regressions of `target`; a missing folder is an error, not an empty list.
    static func inputs(_ target: String) throws -> [Input] {
        let regressions = try #require(Bundle.module.resourceURL)
            .appendingPathComponent("Fixtures/fuzz-regressions/\(target)")
        let seeds = try files(in: corpus.appendingPathComponent(target))
        #expect(!seeds.isEmpty, "no seeds in Fuzz/Corpus/\(target)")
        return seeds + (try files(in: regressions))
    }

    /// The files of `folder` but hidden ones (`.keep`); a missing folder throws.
    static func files(in folder: URL) throws -> [Input] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map {
            Input(
                name: folder.lastPathComponent + "/" + $0,
                bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    /// Counts of inputs that parsed and that failed cleanly; a target's inputs must have both.
    struct Outcomes {
        var parsed = 0
        var refused = 0
    }

    @Test func profileInputsLoadOrGiveDiagnostics() throws {
        var outcomes = Outcomes()
        for input in try Self.inputs("fuzz-profile") {
            switch ProfileLoader.load(input.text, file: input.name) {
            case .success(let profile):
                _ = RigMachine(profile: profile)
                outcomes.parsed += 1
            case .failure(let errors):
                #expect(!errors.diagnostics.isEmpty, "\(input.name)")
                #expect(errors.diagnostics.allSatisfy { $0.line >= 1 && $0.column >= 1 }, "\(input.name): \(errors)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.parsed > 0 && outcomes.refused > 0, "\(outcomes)")
    }

    @Test(arguments: ["fuzz-evemu", "fuzz-libinput"])
    func recordingInputsParseOrFailOnALine(target: String) throws {
        var outcomes = Outcomes()
        for input in try Self.inputs(target) {
            _ = InputRecordingFormat.detect(input.text)
            do {
                if target == "fuzz-evemu" {
                    _ = try EvemuRecording.parse(input.text, file: input.name)
                } else {
                    _ = try LibinputRecording.parse(input.text, file: input.name)
                }
                outcomes.parsed += 1
            } catch {
                #expect(error.file == input.name && error.line >= 1, "\(error)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.parsed > 0 && outcomes.refused > 0, "\(outcomes)")
    }

    @Test func commandInputsAreScheduledOrRefusedWithAReason() throws {
        let rig = try ProfileLoader.load(
            """
            inputs: {pedal: {match: {name: pedal}, bind: {KEY_B: take.toggle}}}
            macros:
              mark: [zoom.set 2, wait 1s, zoom.set 1]
              backup: [{exec: [true]}]
              relay: [rigs take.stop]
            mqtt: {broker: "mqtt://127.0.0.1", rig: cam-a, accept-macros: [mark]}
            """, file: "rig.yaml"
        ).get()
        var outcomes = Outcomes()
        for input in try Self.inputs("fuzz-command") {
            var inbox = CommandInbox()
            let (command, arrival) = inbox.receive(
                payload: input.bytes, now: Instant(microseconds: 50_000_000), realtimeNs: 1_795_000_000_000_000_000,
                frame: .milliseconds(33), profile: rig)
            switch arrival {
            case .scheduled: outcomes.parsed += 1
            case .refused(let reason):
                let shown = TerminalText.safe((command?.shownAction ?? "") + reason)
                #expect(!reason.isEmpty && !shown.unicodeScalars.contains { $0.value < 0x20 }, "\(input.name)")
                outcomes.refused += 1
            case .duplicate: Issue.record("\(input.name): a first delivery counted as a second")
            }
        }
        #expect(outcomes.parsed > 0 && outcomes.refused > 0, "\(outcomes)")
    }

    @Test func actionBodiesNameAnActionOrAreRefusedWithAReason() throws {
        let rig = try ProfileLoader.load(
            """
            inputs: {pedal: {match: {name: pedal}, bind: {KEY_B: take.toggle}}}
            macros:
              mark: [zoom.set 2, wait 1s, zoom.set 1]
              backup: [{exec: [true]}]
              snap: [take.start, wait 2s, take.stop]
            """, file: "rig.yaml"
        ).get()
        var outcomes = Outcomes()
        var ran: [String] = []
        for input in try Self.inputs("fuzz-action") {
            switch ActionBody.decode(input.bytes).flatMap({ request in
                ActionText.steps(request.action, in: rig).map { (request.action, $0) }
            }) {
            case .success(let (action, steps)):
                let runsAProgram = steps.contains { if case .exec = $0.action { true } else { false } }
                #expect(!steps.isEmpty && (!runsAProgram || steps == rig.macros["backup"]), "\(input.name)")
                ran.append(action.trimmingCharacters(in: .whitespaces))
                outcomes.parsed += 1
            case .failure(let error):
                #expect(!error.description.isEmpty, "\(input.name)")
                outcomes.refused += 1
            }
        }
        #expect(ran.sorted() == ["backup", "snap", "take.toggle", "zoom.set 2.5"], "\(ran)")
        #expect(outcomes.refused == 11, "\(outcomes)")
    }
}

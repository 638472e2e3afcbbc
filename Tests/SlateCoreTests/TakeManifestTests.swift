import Testing

@testable import SlateCore

@Suite struct TakeManifestTests {
    static let take = TakeManifest.Take(
        id: "3f2a", file: "take-20231114-221320-3f2a.mp4", thumbnail: "take-20231114-221320-3f2a.jpg",
        started: 1_700_000_000_123_456, duration: .microseconds(12_345_678), frames: 370, dropped: 2, codec: "h264",
        recording: false)

    @Test func jsonRoundTrip() throws {
        var recording = Self.take
        recording.id = "9c01"
        recording.thumbnail = nil
        recording.recording = true
        let manifest = TakeManifest(takes: [Self.take, recording])
        let parsed = try TakeManifest.parse(manifest.json, file: "takes.json").get()
        #expect(parsed == manifest)
        #expect(manifest.json.contains("\"start\":\"2023-11-14T22:13:20.123Z\""))
        #expect(manifest.json.contains("\"duration\":12.345678"))
        #expect(try TakeManifest.parse(TakeManifest().json, file: "takes.json").get() == TakeManifest())
    }

    @Test func badManifestsNameTheFileLineAndColumn() {
        func errors(_ text: String) -> [String] {
            if case .failure(let errors) = TakeManifest.parse(text, file: "takes.json") {
                return errors.diagnostics.map(\.description)
            }
            return []
        }
        #expect(
            errors("{\"version\": 1, \"takes\": [{\"id\": \"a\", \"file\": \"../../etc/passwd\", \"started\": 1}]}")
                == ["takes.json:1:46: error: a take's file must be a file name in the work folder, not '../../etc/passwd'"])
        #expect(
            errors("{\"version\": 2, \"takes\": []}")
                == ["takes.json:1:13: error: version must be a number from 1 to 1, not '2'"])
        #expect(errors("{\"takes\": [{\"id\": \"a\"}]}") == ["takes.json:1:12: error: a take needs id, file and started"])
        #expect(errors("{\"takes\": [") == ["takes.json:2:1: error: YAML: did not find expected node content"])
    }

    @Test func utcTimes() {
        #expect(UTCTime.format(microseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime.format(microseconds: 1_700_000_000_000_000) == "2023-11-14T22:13:20.000Z")
        #expect(UTCTime.format(microseconds: 1_709_208_000_500_000) == "2024-02-29T12:00:00.500Z")
        #expect(UTCTime.format(microseconds: -1_000) == "1969-12-31T23:59:59.999Z")
        #expect(UTCTime.compact(microseconds: 1_795_253_112_000_000) == "20261121-092512")
        #expect(TakeManifest.takeFileName(started: 1_795_253_112_000_000, id: "ab12") == "take-20261121-092512-ab12.mp4")
    }
}

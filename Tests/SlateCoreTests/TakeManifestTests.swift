import Foundation
import Testing

@testable import SlateCore

@Suite struct TakeManifestTests {
    static let take = TakeManifest.Take(
        id: "3f2a", file: "take-20231114-221320-3f2a.mp4", thumbnail: "take-20231114-221320-3f2a.jpg",
        started: 1_700_000_000_123_456, summary: TakeSummary(duration: .microseconds(12_345_678), frames: 370, dropped: 2),
        codec: "h264",
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

    @Test func badManifestsNameTheFileAndTheEntry() {
        func errors(_ text: String) -> String? {
            if case .failure(let error) = TakeManifest.parse(text, file: "takes.json") { return error.description }
            return nil
        }
        #expect(
            errors("{\"version\": 1, \"takes\": [{\"id\": \"a\", \"file\": \"../../etc/passwd\", \"started\": 1}]}")
                == "takes.json: error: takes[0].file: a take's file must be a file name in the work folder, not '../../etc/passwd'"
        )
        #expect(
            errors("{\"takes\": [{\"id\": \"a\", \"file\": \"a.mp4\", \"thumbnail\": \"/tmp/x.jpg\", \"started\": 1}]}")
                == "takes.json: error: takes[0].thumbnail: a take's thumbnail must be a file name in the work folder, not '/tmp/x.jpg'"
        )
        #expect(errors("{\"version\": 2, \"takes\": []}") == "takes.json: error: version: version must be 1, not 2")
        #expect(errors("{\"takes\": [{\"id\": \"a\"}]}") == "takes.json: error: takes[0]: 'file' is missing")
        #expect(
            errors("{\"takes\": [{\"id\": \"a\", \"file\": \"a.mp4\", \"started\": 1, \"frames\": -3}]}")
                == "takes.json: error: takes[0].frames: frames must not be negative, not -3")
        #expect(
            errors("{\"takes\": [{\"id\": 3, \"file\": \"a.mp4\", \"started\": 1}]}")
                == "takes.json: error: takes[0].id: must be a string")
        #expect(errors("{\"takes\": [") == "takes.json: error: The given data was not valid JSON.")
    }

    /// What Slate wrote before its manifests were encoded by `JSONEncoder`, and
    /// readers that know only those keys: the same keys (and `realtime_ns`, the
    /// first frame's instant in nanoseconds, beside them), `thumbnail` null when
    /// there is none, `exported` and `kept` only when set.
    @Test func theSchemaIsTheOneEarlierSlatesReadAndWrote() throws {
        let earlier = """
            {
              "version": 1,
              "takes": [
                {"id":"3f2a","file":"take-20231114-221320-3f2a.mp4","thumbnail":"take-20231114-221320-3f2a.jpg","started":1700000000123456,"start":"2023-11-14T22:13:20.123Z","duration":12.345678,"frames":370,"dropped":2,"codec":"h264","recording":false},
                {"id":"0002","file":"take-2.mp4","thumbnail":null,"started":1,"start":"1970-01-01T00:00:00.000Z","duration":0.000000,"frames":0,"dropped":0,"codec":"hevc","recording":true,"kept":"short"}
              ]
            }

            """
        let manifest = try TakeManifest.parse(earlier, file: "takes.json").get()
        var second = TakeManifest.Take(id: "0002", file: "take-2.mp4", thumbnail: nil, started: 1, codec: "hevc", recording: true)
        second.kept = "short"
        #expect(manifest == TakeManifest(takes: [Self.take, second]))
        let written = try #require(
            try JSONSerialization.jsonObject(with: Data(manifest.json.utf8)) as? [String: Any])
        #expect(Set(written.keys) == ["version", "takes"] && written["version"] as? Int == 1)
        let takes = try #require(written["takes"] as? [[String: Any]])
        let keys = [
            "id", "file", "thumbnail", "started", "start", "duration", "frames", "dropped", "codec", "recording", "realtime_ns",
        ]
        #expect(Set(takes[0].keys) == Set(keys))
        #expect(Set(takes[1].keys) == Set(keys + ["kept"]))
        #expect(takes[1]["thumbnail"] is NSNull)
        #expect(takes[0]["started"] as? Int64 == 1_700_000_000_123_456 && takes[0]["duration"] as? Double == 12.345678)
        #expect(takes[0]["realtime_ns"] as? Int64 == 1_700_000_000_123_456_000)
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

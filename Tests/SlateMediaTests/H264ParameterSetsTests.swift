import SlateCore
import Testing

@testable import SlateMedia

/// libavcodec's extract_extradata finds a camera's SPS and PPS in its frames.
@Suite struct H264ParameterSetsTests {
    /// A keyframe and the next frame from libx264, and its global header.
    func encoded() throws -> (key: EncodedPacket, next: EncodedPacket, header: [UInt8]) {
        let encoder = try VideoEncoder(codecs: ["libx264"], width: 64, height: 48, fps: 30)
        let pattern = TestPattern(width: 64, height: 48)
        let key = try #require(
            try encoder.encode(pattern.frame(index: 0, time: Instant(microseconds: 0)), pts: 0, keyframe: true).first)
        let next = try #require(try encoder.encode(pattern.frame(index: 1, time: Instant(microseconds: 33_333)), pts: 1).first)
        return (key, next, encoder.parameters.extradata)
    }

    /// The NAL units of Annex B data, without their start codes.
    func units(_ data: [UInt8]) -> [[UInt8]] {
        let starts = data.indices.dropLast(2).filter { data[$0] == 0 && data[$0 + 1] == 0 && data[$0 + 2] == 1 }
        return starts.enumerated().map { number, start in
            let end = number + 1 < starts.count ? starts[number + 1] : data.count
            return Array(Array(data[(start + 3)..<end]).reversed().drop(while: { $0 == 0 }).reversed())
        }
    }

    func type(_ unit: [UInt8]) -> UInt8 { unit[0] & 0x1F }

    @Test func theParameterSetsBeforeAnIDRFrameAreTheExtradataWithStartCodes() throws {
        let (key, _, header) = try encoded()
        let sets = units(header).filter { [7, 8].contains(type($0)) }
        #expect(sets.map(type) == [7, 8])
        let extradata = try #require(try H264ParameterSets.extradata(in: header + key.data))
        #expect(units(extradata) == sets)
        #expect(extradata.starts(with: [0, 0, 1]) || extradata.starts(with: [0, 0, 0, 1]))
    }

    @Test func aFrameWithoutBothSetsHasNone() throws {
        let (key, next, header) = try encoded()
        #expect(try H264ParameterSets.extradata(in: key.data) == nil)
        #expect(try H264ParameterSets.extradata(in: next.data) == nil)
        #expect(try H264ParameterSets.extradata(in: []) == nil)
        let sps = try #require(units(header).first { type($0) == 7 })
        #expect(try H264ParameterSets.extradata(in: [0, 0, 0, 1] + sps + key.data) == nil)
    }
}

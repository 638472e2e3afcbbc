import Testing

@testable import SlateCore

@Suite struct H264ParameterSetsTests {
    let sps: [UInt8] = [0x67, 0x42, 0xC0, 0x1E, 0x8C]
    let pps: [UInt8] = [0x68, 0xCE, 0x3C, 0x80]
    let idr: [UInt8] = [0x65, 0x88, 0x84, 0x00, 0x21]

    @Test func extradataIsTheSPSAndPPSWithStartCodes() {
        let accessUnit = [0, 0, 0, 1] + sps + [0, 0, 1] + pps + [0, 0, 0, 1] + idr
        #expect(H264ParameterSets.nalUnits(accessUnit).map(Array.init) == [sps, pps, idr])
        #expect(H264ParameterSets.extradata(in: accessUnit) == [0, 0, 0, 1] + sps + [0, 0, 0, 1] + pps)
    }

    @Test func aFrameWithoutParameterSetsHasNone() {
        #expect(H264ParameterSets.extradata(in: [0, 0, 0, 1] + idr) == nil)
        #expect(H264ParameterSets.extradata(in: [0, 0, 0, 1] + sps + [0, 0, 0, 1] + idr) == nil)
        #expect(H264ParameterSets.extradata(in: []) == nil)
    }
}

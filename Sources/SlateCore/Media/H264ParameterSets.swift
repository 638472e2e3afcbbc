/// Finds an H.264 stream's global header in its frames: the sequence and picture
/// parameter sets (NAL unit types 7 and 8) that cameras send before each IDR frame,
/// which a muxer needs as extradata.
public enum H264ParameterSets {
    /// The SPS and PPS NAL units of an Annex B access unit, each with a 4-byte start
    /// code, as libavformat accepts H.264 extradata; nil unless both are there.
    public static func extradata(in accessUnit: [UInt8]) -> [UInt8]? {
        var sps: [ArraySlice<UInt8>] = []
        var pps: [ArraySlice<UInt8>] = []
        for unit in nalUnits(accessUnit) {
            switch unit.first.map({ $0 & 0x1F }) {
            case 7: sps.append(unit)
            case 8: pps.append(unit)
            default: break
            }
        }
        guard !sps.isEmpty, !pps.isEmpty else { return nil }
        return (sps + pps).flatMap { [0, 0, 0, 1] + $0 }
    }

    /// The NAL units of an Annex B byte stream, without their start codes.
    public static func nalUnits(_ stream: [UInt8]) -> [ArraySlice<UInt8>] {
        var units: [ArraySlice<UInt8>] = []
        var start: Int?
        var index = 0
        while index + 2 < stream.count {
            if stream[index] == 0, stream[index + 1] == 0, stream[index + 2] == 1 {
                if let start { units.append(trimmed(stream[start..<index])) }
                index += 3
                start = index
            } else {
                index += 1
            }
        }
        if let start, start < stream.count { units.append(stream[start...]) }
        return units.filter { !$0.isEmpty }
    }

    /// Drops the zero byte of a 4-byte start code that follows the unit.
    private static func trimmed(_ unit: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var unit = unit
        while unit.last == 0 { unit = unit.dropLast() }
        return unit
    }
}

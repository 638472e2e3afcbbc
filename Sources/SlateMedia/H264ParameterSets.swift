import CAV

/// An H.264 stream's global header, found in its frames by libavcodec's
/// `extract_extradata` bitstream filter: the sequence and picture parameter
/// sets that cameras send before each IDR frame, which a muxer needs as extradata.
enum H264ParameterSets {
    /// The parameter sets of an Annex B access unit, with their start codes, as
    /// libavformat takes H.264 extradata; nil unless the unit holds an SPS and a
    /// PPS. Throws when libavcodec has no such filter or cannot start it.
    static func extradata(in accessUnit: [UInt8]) throws(MediaError) -> [UInt8]? {
        let operation = "find the camera's H.264 parameter sets"
        guard let filter = av_bsf_get_by_name("extract_extradata") else {
            throw MediaError(operation, path: "", message: "this libavcodec has no extract_extradata filter")
        }
        var context: UnsafeMutablePointer<AVBSFContext>?
        try check(av_bsf_alloc(filter, &context), operation, path: "")
        defer { av_bsf_free(&context) }
        guard let bsf = context else { throw MediaError(operation, path: "", code: slate_averror(ENOMEM)) }
        bsf.pointee.par_in.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        bsf.pointee.par_in.pointee.codec_id = AV_CODEC_ID_H264
        try check(av_bsf_init(bsf), operation, path: "")
        guard !accessUnit.isEmpty else { return nil }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, av_new_packet(packet, Int32(accessUnit.count)) >= 0 else { return nil }
        accessUnit.withUnsafeBufferPointer { packet.pointee.data.update(from: $0.baseAddress!, count: $0.count) }
        guard av_bsf_send_packet(bsf, packet) >= 0, av_bsf_receive_packet(bsf, packet) >= 0 else { return nil }
        var size = 0
        guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_NEW_EXTRADATA, &size), size > 0 else { return nil }
        let extradata = Array(UnsafeBufferPointer(start: data, count: size))
        return hasParameterSets(extradata) ? extradata : nil
    }

    /// Whether Annex B data holds an SPS (NAL unit type 7) and a PPS (type 8):
    /// the filter also returns a lone SPS.
    static func hasParameterSets(_ data: [UInt8]) -> Bool { nalTypes(in: data).isSuperset(of: [7, 8]) }

    /// The NAL unit types of Annex B data.
    private static func nalTypes(in data: [UInt8]) -> Set<UInt8> {
        var types: Set<UInt8> = []
        for index in data.indices.dropLast(3) where data[index] == 0 && data[index + 1] == 0 && data[index + 2] == 1 {
            types.insert(data[index + 3] & 0x1F)
        }
        return types
    }

    /// An Annex B access unit with `parameterSets` (Annex B, as `extradata`
    /// finds them) in front, unless it has an SPS and a PPS of its own.
    static func prefixed(_ accessUnit: [UInt8], with parameterSets: [UInt8]) -> [UInt8] {
        guard !parameterSets.isEmpty, !hasParameterSets(accessUnit) else { return accessUnit }
        return parameterSets + accessUnit
    }
}

import CAV
import SlateCore

/// Colour tags as libavcodec and libavformat hold them.
extension ColorTags {
    /// The tags of a stream's parameters; unknown ones nil, an unknown range limited.
    init(_ parameters: AVCodecParameters) {
        self.init(
            primaries: Self.known(av_color_primaries_name(parameters.color_primaries)),
            transfer: Self.known(av_color_transfer_name(parameters.color_trc)),
            matrix: Self.known(av_color_space_name(parameters.color_space)),
            fullRange: parameters.color_range == AVCOL_RANGE_JPEG)
    }

    /// Sets them on an encoder, which writes them into the codec's own header (H.264's and HEVC's VUI).
    func apply(to context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.color_primaries = primariesValue
        context.pointee.color_trc = transferValue
        context.pointee.colorspace = matrixValue
        context.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
    }

    /// Sets them on a stream, which the MP4 muxer writes as its `colr` box.
    func apply(to parameters: UnsafeMutablePointer<AVCodecParameters>) {
        parameters.pointee.color_primaries = primariesValue
        parameters.pointee.color_trc = transferValue
        parameters.pointee.color_space = matrixValue
        parameters.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
    }

    private var primariesValue: AVColorPrimaries {
        AVColorPrimaries(rawValue: Self.value(primaries.map { av_color_primaries_from_name($0) }))
    }

    private var transferValue: AVColorTransferCharacteristic {
        AVColorTransferCharacteristic(rawValue: Self.value(transfer.map { av_color_transfer_from_name($0) }))
    }

    private var matrixValue: AVColorSpace {
        AVColorSpace(rawValue: Self.value(matrix.map { av_color_space_from_name($0) }))
    }

    /// libav's value for a name it looked up; unspecified (2, in each of its three lists) for none or one it does not know.
    private static func value(_ found: Int32?) -> UInt32 {
        guard let found, found >= 0 else { return 2 }
        return UInt32(found)
    }

    /// A libav name, nil for none or `unknown` (unspecified).
    private static func known(_ name: UnsafePointer<CChar>?) -> String? {
        guard let name else { return nil }
        let text = String(cString: name)
        return text == "unknown" || text == "reserved" ? nil : text
    }
}

import CAV
import SlateCore
import SlateSystem

/// Process-wide libav settings, applied once before the first libav call.
enum LibAV {
    /// libav and the encoders it wraps log at `error` level only, unless
    /// SLATE_AV_LOG names another level (quiet, error, warning, info, verbose, debug).
    static let setUp: Void = {
        let levels: [String: Int32] = [
            "quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING,
            "info": AV_LOG_INFO, "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG,
        ]
        let requested = getenv("SLATE_AV_LOG").map { String(cString: $0) }
        av_log_set_level(requested.flatMap { levels[$0] } ?? AV_LOG_ERROR)
    }()
}

extension EncodedPacket {
    /// Copies the packet's bytes, timestamps and keyframe flag into libav's
    /// `packet`, which the caller unrefs after use.
    func fill(_ packet: UnsafeMutablePointer<AVPacket>, _ operation: String, path: String) throws(MediaError) {
        try check(av_new_packet(packet, Int32(data.count)), operation, path: path)
        if let bytes = packet.pointee.data, !data.isEmpty {
            data.withUnsafeBufferPointer { bytes.update(from: $0.baseAddress!, count: $0.count) }
        }
        packet.pointee.pts = pts
        packet.pointee.dts = dts
        packet.pointee.duration = duration
        packet.pointee.flags = isKeyframe ? AV_PKT_FLAG_KEY : 0
    }
}

/// `bytes` copied into a buffer of libav's, padded as its parsers need, for a
/// codec's or a stream's `extradata`, which libav frees with its owner.
func libavExtradata(_ bytes: [UInt8], _ operation: String, path: String) throws(MediaError) -> UnsafeMutablePointer<UInt8> {
    guard let copy = av_mallocz(bytes.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self)
    else { throw MediaError(operation, path: path, code: slate_averror(ENOMEM)) }
    bytes.withUnsafeBufferPointer { copy.update(from: $0.baseAddress!, count: $0.count) }
    return copy
}

/// The packets an encoder has ready (until it wants more input or is drained),
/// each copied out of `packet`; a packet without a duration lasts `duration`,
/// and with `allKeyframes` every packet is one (sound).
func receivePackets(
    from context: UnsafeMutablePointer<AVCodecContext>, into packet: UnsafeMutablePointer<AVPacket>?, _ operation: String,
    path: String, duration: Int64, allKeyframes: Bool = false
) throws(MediaError) -> [EncodedPacket] {
    guard let packet else { return [] }
    var packets: [EncodedPacket] = []
    while true {
        let status = avcodec_receive_packet(context, packet)
        if status == slate_averror(EAGAIN) || status == slate_averror_eof() { return packets }
        try check(status, operation, path: path)
        let p = packet.pointee
        packets.append(
            EncodedPacket(
                data: Array(UnsafeBufferPointer(start: p.data, count: Int(p.size))), pts: p.pts,
                dts: p.dts == slate_av_nopts_value() ? p.pts : p.dts, duration: p.duration > 0 ? p.duration : duration,
                isKeyframe: allKeyframes || p.flags & AV_PKT_FLAG_KEY != 0))
        av_packet_unref(packet)
    }
}

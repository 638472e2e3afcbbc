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

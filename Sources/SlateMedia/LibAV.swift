import CAV
import CAVLog
import SlateCore
import SlateSystem
import Synchronization

/// Process-wide libav settings, applied once before the first libav call.
enum LibAV {
    /// libav and the encoders it wraps log at `error` level only, unless
    /// SLATE_AV_LOG names another level (quiet, error, warning, info, verbose,
    /// debug), to standard error, through `log` (which keeps what `collecting` asks for).
    static let setUp: Void = {
        let levels: [String: Int32] = [
            "quiet": AV_LOG_QUIET, "error": AV_LOG_ERROR, "warning": AV_LOG_WARNING,
            "info": AV_LOG_INFO, "verbose": AV_LOG_VERBOSE, "debug": AV_LOG_DEBUG,
        ]
        let requested = getenv("SLATE_AV_LOG").map { String(cString: $0) }
        av_log_set_level(requested.flatMap { levels[$0] } ?? AV_LOG_ERROR)
        slate_av_log_to(log)
    }()

    /// libav's error lines since `collecting` began; nil when none is.
    private static let collected = Mutex<[String]?>(nil)

    /// Runs `body`, and returns with its result the error lines libav logged
    /// meanwhile (`Cannot load libcuda.so.1`), which say more than its error
    /// codes do, instead of printing them. One caller at a time (an encoder's probe).
    static func collecting<T>(_ body: () -> T) -> (T, [String]) {
        _ = setUp
        collected.withLock { $0 = [] }
        let result = body()
        return (
            result,
            collected.withLock { lines in
                defer { lines = nil }
                return lines ?? []
            }
        )
    }

    /// libav's log: a line at or above the level set goes to standard
    /// error, but an error line is kept instead while `collecting`.
    private static let log: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
        guard let line else { return }
        let text = String(cString: line)
        let kept =
            level <= AV_LOG_ERROR
            && collected.withLock { lines in
                lines?.append(message(of: text))
                return lines != nil
            }
        if !kept && level <= av_log_get_level() { OutputStream.writeRaw(text, fd: .standardError) }
    }

    /// A log line without libav's `[context @ 0x…] ` in front and its line end.
    static func message(of line: String) -> String {
        var message = Substring(line)
        if message.hasPrefix("["), let end = message.firstIndex(of: "]") { message = message[message.index(after: end)...] }
        while message.first == " " { message = message.dropFirst() }
        while message.last == "\n" { message = message.dropLast() }
        return String(message)
    }
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

import CAV
import SlateCore
import SlateSystem

/// Reads a media file packet by packet to say what it really holds: the tool
/// that verifies takes and exports. A truncated fragmented MP4 is read up to
/// its last complete fragment.
public enum MediaProbe {
    /// Probes the first video stream of the file at `path`; with `decode`,
    /// also decodes every frame and counts the pictures.
    public static func probe(path: String, decode: Bool = false) throws(MediaError) -> MediaInfo {
        try probe(MediaInput(path: path, operation: "open the file"), decode: decode)
    }

    /// Probes the file `name` of `folder`, never through a link.
    public static func probe(_ name: String, in folder: Folder, decode: Bool = false) throws(MediaError) -> MediaInfo {
        try probe(MediaInput(name, in: folder, operation: "open the file"), decode: decode)
    }

    private static func probe(_ input: MediaInput, decode: Bool) throws(MediaError) -> MediaInfo {
        let context = input.context
        let path = input.path
        try check(avformat_find_stream_info(context, nil), "read the stream info", path: path)
        let index = try check(
            av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0), "find a video stream", path: path)
        let stream = context.pointee.streams[Int(index)]!
        let codecpar = stream.pointee.codecpar!
        let timeBase = stream.pointee.time_base
        // A packet without a duration lasts one frame at the stream's frame rate.
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let frameDuration: Int64 = rate.num > 0 ? max(1, av_rescale_q(1, AVRational(num: rate.den, den: rate.num), timeBase)) : 1

        let decoder = decode ? try Decoder(codecpar, path: path) : nil
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw MediaError("read a packet", path: path, code: slate_averror(ENOMEM)) }
        var frames = 0, keyframes = 0, sinceKeyframe = 0, longestInterval = 0
        var first = Int64.max, end = Int64.min
        let soundIndex = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        var sound = SoundCount()
        while av_read_frame(context, packet) >= 0 {
            defer { av_packet_unref(packet) }
            if packet.pointee.stream_index == soundIndex { sound.add(packet.pointee) }
            guard packet.pointee.stream_index == index else { continue }
            frames += 1
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 {
                keyframes += 1
                sinceKeyframe = 0
            }
            sinceKeyframe += 1
            longestInterval = max(longestInterval, sinceKeyframe)
            let time = packet.pointee.pts != slate_av_nopts_value() ? packet.pointee.pts : packet.pointee.dts
            if time != slate_av_nopts_value() {
                first = min(first, time)
                end = max(end, time + (packet.pointee.duration > 0 ? packet.pointee.duration : frameDuration))
            }
            try decoder?.send(packet)
        }
        try decoder?.send(nil)

        let rotation = displayRotation(of: stream)
        let chapters = (0..<Int(context.pointee.nb_chapters)).compactMap { index -> MediaInfo.Chapter? in
            guard let chapter = context.pointee.chapters[index] else { return nil }
            let title = av_dict_get(chapter.pointee.metadata, "title", nil, 0).map { String(cString: $0.pointee.value) }
            return MediaInfo.Chapter(
                start: av_rescale_q(chapter.pointee.start, chapter.pointee.time_base, slate_av_time_base_q()), title: title ?? "")
        }
        var info = MediaInfo(
            format: String(cString: context.pointee.iformat.pointee.name),
            codec: String(cString: avcodec_get_name(codecpar.pointee.codec_id)),
            tag: String(
                decoding: (0..<4).map { UInt8(truncatingIfNeeded: codecpar.pointee.codec_tag >> ($0 * 8)) }, as: UTF8.self),
            width: Int(codecpar.pointee.width), height: Int(codecpar.pointee.height),
            frameCount: frames, keyframeCount: keyframes, longestKeyframeInterval: longestInterval,
            durationMicroseconds: first <= end ? av_rescale_q(end - first, timeBase, slate_av_time_base_q()) : 0,
            hasExtradata: codecpar.pointee.extradata_size > 0, rotation: rotation, decodedFrames: decoder?.frames,
            sound: soundIndex >= 0 ? sound.info(of: context.pointee.streams[Int(soundIndex)]!) : nil,
            timecode: av_dict_get(stream.pointee.metadata, "timecode", nil, 0).map { String(cString: $0.pointee.value) })
        info.chapters = chapters
        let tags = ColorTags(codecpar.pointee)
        let range = codecpar.pointee.color_range
        info.color = MediaInfo.Color(
            primaries: tags.primaries, transfer: tags.transfer, matrix: tags.matrix,
            range: range == AVCOL_RANGE_JPEG ? "pc" : range == AVCOL_RANGE_MPEG ? "tv" : nil)
        let base = stream.pointee.r_frame_rate
        if base.num > 0, base.den > 0 { info.frameRate = FrameRate(frames: Int64(base.num), per: Int64(base.den)) }
        return info
    }

    /// The sound stream's packets as they are read.
    private struct SoundCount {
        var packets = 0
        var first = Int64.max
        var end = Int64.min

        mutating func add(_ packet: AVPacket) {
            packets += 1
            let time = packet.pts != slate_av_nopts_value() ? packet.pts : packet.dts
            guard time != slate_av_nopts_value() else { return }
            first = min(first, time)
            end = max(end, time + packet.duration)
        }

        func info(of stream: UnsafeMutablePointer<AVStream>) -> SoundInfo {
            let codecpar = stream.pointee.codecpar.pointee
            let start = max(0, first)
            return SoundInfo(
                codec: String(cString: avcodec_get_name(codecpar.codec_id)),
                format: AudioFormat(rate: Int(codecpar.sample_rate), channels: Int(codecpar.ch_layout.nb_channels)),
                packets: packets,
                durationMicroseconds: start <= end
                    ? av_rescale_q(end - start, stream.pointee.time_base, slate_av_time_base_q()) : 0)
        }
    }

    /// A decoder that counts the pictures it produces.
    private final class Decoder {
        private var context: UnsafeMutablePointer<AVCodecContext>?
        private var frame: UnsafeMutablePointer<AVFrame>?
        private let path: String
        private(set) var frames = 0

        init(_ parameters: UnsafeMutablePointer<AVCodecParameters>, path: String) throws(MediaError) {
            self.path = path
            guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
                throw MediaError("open a decoder", path: path, message: "no decoder for this codec")
            }
            context = avcodec_alloc_context3(codec)
            frame = av_frame_alloc()
            guard let context, frame != nil else { throw MediaError("open a decoder", path: path, code: slate_averror(ENOMEM)) }
            try check(avcodec_parameters_to_context(context, parameters), "open a decoder", path: path)
            try check(avcodec_open2(context, codec, nil), "open a decoder", path: path)
        }

        deinit {
            avcodec_free_context(&context)
            av_frame_free(&frame)
        }

        /// Decodes one packet (nil drains the decoder).
        func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(MediaError) {
            try check(avcodec_send_packet(context, packet), "decode a frame", path: path)
            while true {
                let status = avcodec_receive_frame(context, frame)
                if status == slate_averror(EAGAIN) || status == slate_averror_eof() { return }
                try check(status, "decode a frame", path: path)
                frames += 1
                av_frame_unref(frame)
            }
        }
    }
}

/// The clockwise rotation, in degrees, that a stream's display matrix asks for (0 without one).
func displayRotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
    var size = 0
    guard let matrix = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else { return 0 }
    let angle = matrix.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
    return angle.isFinite ? ((Int((-angle).rounded()) % 360) + 360) % 360 : 0
}

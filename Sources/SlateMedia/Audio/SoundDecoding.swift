import CAV
import SlateCore

/// A sound stream decoded a packet at a time and converted by libswresample
/// to interleaved 16-bit frames of one format, so that a sound of any length
/// is joined, verified or encoded again in the memory of a few packets.
/// Frames before the file's time 0 (the encoder's priming, which the edit
/// list hides from players) are dropped.
final class SoundDecoding {
    /// The time of the first frame kept, in microseconds of the file's
    /// timeline; known once `next` has given something.
    private(set) var start: Int64?
    /// How many frames `next` has given so far.
    private(set) var frames: Int64 = 0

    private let reader: SoundReader
    private let target: AudioFormat
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var resampler: OpaquePointer?
    /// What the resampler was set up for: every frame must be of it.
    private var input: (channels: Int32, sample: Int32, rate: Int32)?
    /// Frames still to drop from the start (the priming), in the target's rate.
    private var priming = 0
    private var ended = false
    private var flushed = false

    /// A decoder of `reader`'s stream giving frames of `target`.
    init(_ reader: SoundReader, to target: AudioFormat) throws(MediaError) {
        self.reader = reader
        self.target = target
        let parameters = reader.parameters
        guard
            let codec = avcodec_find_decoder_by_name(parameters.codec)
                ?? avcodec_find_decoder(
                    avcodec_descriptor_get_by_name(parameters.codec)?.pointee.id ?? AV_CODEC_ID_NONE)
        else { throw MediaError("decode the sound", path: reader.path, message: "no decoder for \(parameters.codec)") }
        context = avcodec_alloc_context3(codec)
        frame = av_frame_alloc()
        guard let context, frame != nil else {
            throw MediaError("decode the sound", path: reader.path, code: slate_averror(ENOMEM))
        }
        let (codecpar, timeBase) = reader.stream
        try check(avcodec_parameters_to_context(context, codecpar), "decode the sound", path: reader.path)
        context.pointee.pkt_timebase = timeBase
        try check(avcodec_open2(context, codec, nil), "decode the sound", path: reader.path)
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        swr_free(&resampler)
    }

    /// The next frames (possibly none, while the decoder fills), interleaved;
    /// nil once the stream is all given.
    func next() throws(MediaError) -> [Int16]? {
        guard let context, let frame else { return nil }
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == slate_averror_eof() { return try drain() }
            if status == slate_averror(EAGAIN) {
                if let packet = try reader.readPacket() {
                    defer { av_packet_unref(packet) }
                    try check(avcodec_send_packet(context, packet), "decode the sound", path: reader.path)
                } else if !ended {
                    ended = true
                    try check(avcodec_send_packet(context, nil), "decode the sound", path: reader.path)
                } else {
                    return try drain()
                }
                continue
            }
            try check(status, "decode the sound", path: reader.path)
            defer { av_frame_unref(frame) }
            return try convert(frame)
        }
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [Int16] {
        if start == nil {
            let pts = frame.pointee.best_effort_timestamp
            let first = pts == slate_av_nopts_value() ? 0 : av_rescale_q(pts, reader.stream.timeBase, slate_av_time_base_q())
            start = max(0, first)
            // At most a minute of priming: a hostile timestamp neither overflows nor hides a long sound.
            if first < 0 { priming = Int((min(-first, 60_000_000) * Int64(target.rate) + 500_000) / 1_000_000) }
        }
        let format = (
            channels: frame.pointee.ch_layout.nb_channels, sample: frame.pointee.format, rate: frame.pointee.sample_rate
        )
        if let input, input != format {
            throw MediaError(
                "decode the sound", path: reader.path,
                message:
                    "its format changes partway, from \(input.channels) channels at \(input.rate) Hz to \(format.channels) at \(format.rate) Hz"
            )
        }
        if resampler == nil {
            input = format
            var outLayout = AVChannelLayout()
            av_channel_layout_default(&outLayout, Int32(target.channels))
            defer { av_channel_layout_uninit(&outLayout) }
            try check(
                swr_alloc_set_opts2(
                    &resampler, &outLayout, AV_SAMPLE_FMT_S16, Int32(target.rate), &frame.pointee.ch_layout,
                    AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate, 0, nil),
                "convert the sound", path: reader.path)
            try check(swr_init(resampler), "convert the sound", path: reader.path)
        }
        let count = Int32(frame.pointee.nb_samples)
        let planes = UnsafeMutableRawPointer(frame.pointee.extended_data)?.assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        return try resample(planes, count: count)
    }

    /// What the resampler still holds, then nil.
    private func drain() throws(MediaError) -> [Int16]? {
        guard !flushed else { return nil }
        flushed = true
        guard resampler != nil else { return nil }
        return try resample(nil, count: 0)
    }

    private func resample(_ planes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws(MediaError) -> [Int16] {
        let room = swr_get_out_samples(resampler, count) + 32
        guard room > 0 else { return [] }
        let channels = target.channels
        var out = [Int16](repeating: 0, count: Int(room) * channels)
        let made = out.withUnsafeMutableBytes { bytes in
            var into: UnsafeMutablePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return swr_convert(resampler, &into, room, planes, count)
        }
        try check(made, "convert the sound", path: reader.path)
        var kept = Int(made)
        var skip = 0
        if priming > 0 {
            skip = min(priming, kept)
            priming -= skip
            kept -= skip
        }
        frames += Int64(kept)
        return Array(out[skip * channels..<(skip + kept) * channels])
    }
}

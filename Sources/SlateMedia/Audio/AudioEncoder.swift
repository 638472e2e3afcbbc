import CAV
import SlateCore
import SlateSystem

/// A libavcodec sound encoder fed interleaved signed 16-bit frames, through
/// libswresample, whose compensation (`swr_set_compensation`) stretches or
/// shrinks the sound by a few frames at a time without a click: how a take's
/// sound is kept on the picture's clock when the sound card's clock drifts.
///
/// Packet timestamps count frames of the output (the time base is 1/rate);
/// the first packet starts `initialPadding` frames before 0, and a frame fed
/// as the n-th frame of output plays at time n.
public final class AudioEncoder {
    /// The codecs a take's sound can be stored in.
    public enum Codec: String, CaseIterable, Sendable {
        /// libavcodec's native AAC encoder (AAC-LC).
        case aac
        /// libopus, where libavcodec has it; 48 kHz only.
        case opus
        /// 16-bit PCM, for QuickTime takes: no encoder and no delay.
        case pcm = "pcm_s16le"
    }

    public let codec: Codec
    /// The libavcodec encoder in use, e.g. `aac` or `libopus`.
    public let encoderName: String
    public let parameters: AudioStreamParameters
    /// Frames handed to `encode`, before compensation.
    public private(set) var framesIn: Int64 = 0
    /// Frames that left the resampler for the encoder, after compensation.
    public private(set) var framesOut: Int64 = 0

    private let context: UnsafeMutablePointer<AVCodecContext>
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var converted: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
    private var convertedCapacity: Int32 = 0
    private var nextPts: Int64 = 0
    /// Whether the resampler has been asked for a correction (and so resamples).
    private var compensating = false
    private var flushed = false

    /// Opens `codec` for `format`; `bitRate` nil takes 64 kb/s per channel (none
    /// for PCM). `gainDB` scales the sound in the resampler (its channel matrix).
    public init(codec: Codec, format: AudioFormat, bitRate: Int? = nil, gainDB: Double = 0) throws(MediaError) {
        _ = LibAV.setUp
        let names: [String] =
            switch codec {
            case .aac: ["aac"]
            case .opus: ["libopus"]
            case .pcm: ["pcm_s16le"]
            }
        guard format.channels >= 1, format.channels <= 8, format.rate >= 8000, format.rate <= 192_000 else {
            throw MediaError("open a sound encoder", path: codec.rawValue, message: "\(format) cannot be encoded")
        }
        guard let name = names.first(where: { avcodec_find_encoder_by_name($0) != nil }),
            let encoder = avcodec_find_encoder_by_name(name)
        else {
            throw MediaError("open a sound encoder", path: codec.rawValue, message: "this libavcodec has no \(names[0]) encoder")
        }
        guard let context = avcodec_alloc_context3(encoder) else {
            throw MediaError("open a sound encoder", path: name, code: slate_averror(ENOMEM))
        }
        self.context = context
        self.codec = codec
        encoderName = name
        context.pointee.sample_rate = Int32(format.rate)
        av_channel_layout_default(&context.pointee.ch_layout, Int32(format.channels))
        context.pointee.time_base = AVRational(num: 1, den: Int32(format.rate))
        context.pointee.sample_fmt = Self.sampleFormat(of: encoder)
        if codec != .pcm { context.pointee.bit_rate = Int64(bitRate ?? 64_000 * format.channels) }
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        let opened = withSignalsBlocked { avcodec_open2(context, encoder, nil) }
        guard opened >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freed)
            throw MediaError("open the \(name) encoder for \(format)", path: name, code: opened)
        }
        let frameSize = context.pointee.frame_size > 0 ? Int(context.pointee.frame_size) : 1024
        let extradata =
            context.pointee.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size))) }
            ?? []
        parameters = AudioStreamParameters(
            codec: String(cString: avcodec_get_name(context.pointee.codec_id)), format: format, frameSize: frameSize,
            initialPadding: Int(context.pointee.initial_padding), extradata: extradata,
            bitRate: Int(context.pointee.bit_rate))
        try openBuffers(frameSize: frameSize, gainDB: gainDB)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = self.context
        avcodec_free_context(&context)
        swr_free(&resampler)
        if let fifo { av_audio_fifo_free(fifo) }
        if let converted {
            av_freep(converted)
            converted.deallocate()
        }
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// The encoder's own sample format: planar float for AAC, else what it takes first.
    private static func sampleFormat(of encoder: UnsafePointer<AVCodec>) -> AVSampleFormat {
        guard let formats = encoder.pointee.sample_fmts else { return AV_SAMPLE_FMT_S16 }
        var preferred: AVSampleFormat?
        var index = 0
        while formats[index] != AV_SAMPLE_FMT_NONE {
            if formats[index] == AV_SAMPLE_FMT_FLTP || formats[index] == AV_SAMPLE_FMT_S16 { return formats[index] }
            preferred = preferred ?? formats[index]
            index += 1
        }
        return preferred ?? AV_SAMPLE_FMT_S16
    }

    private func openBuffers(frameSize: Int, gainDB: Double) throws(MediaError) {
        let format = parameters.format
        var outLayout = AVChannelLayout()
        var inLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(format.channels))
        av_channel_layout_default(&inLayout, Int32(format.channels))
        defer {
            av_channel_layout_uninit(&outLayout)
            av_channel_layout_uninit(&inLayout)
        }
        try check(
            swr_alloc_set_opts2(
                &resampler, &outLayout, context.pointee.sample_fmt, Int32(format.rate), &inLayout, AV_SAMPLE_FMT_S16,
                Int32(format.rate), 0, nil), "set up the resampler", path: encoderName)
        if gainDB != 0 {
            let channels = format.channels
            let gain = pow(10, gainDB / 20)
            var matrix = [Double](repeating: 0, count: channels * channels)
            for channel in 0..<channels { matrix[channel * channels + channel] = gain }
            try check(swr_set_matrix(resampler, matrix, Int32(channels)), "set the gain", path: encoderName)
        }
        try check(swr_init(resampler), "set up the resampler", path: encoderName)
        fifo = av_audio_fifo_alloc(context.pointee.sample_fmt, Int32(format.channels), Int32(frameSize) * 4)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard fifo != nil, let frame, packet != nil else {
            throw MediaError("allocate sound buffers", path: encoderName, code: slate_averror(ENOMEM))
        }
        frame.pointee.nb_samples = Int32(frameSize)
        frame.pointee.format = context.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = Int32(format.rate)
        try check(
            av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout), "allocate a frame", path: encoderName)
        try check(av_frame_get_buffer(frame, 0), "allocate a frame", path: encoderName)
    }

    /// Frames given to the resampler that have not come out of it yet.
    public var framesHeld: Int64 { swr_get_delay(resampler, Int64(parameters.format.rate)) }

    /// Adds (`delta` > 0) or removes frames, `delta` of them spread over the
    /// next `distance` frames of output; a new call replaces the last one.
    /// Until a first correction, the resampler only converts samples, which costs
    /// less than resampling; asking for none then changes nothing.
    public func compensate(delta: Int, distance: Int) throws(MediaError) {
        guard distance > 0, delta != 0 || compensating else { return }
        compensating = true
        try check(swr_set_compensation(resampler, Int32(delta), Int32(distance)), "correct the sound's timing", path: encoderName)
    }

    /// Encodes interleaved frames (`samples.count / channels` of them) and
    /// returns the packets the encoder has ready.
    public func encode(_ samples: [Int16]) throws(MediaError) -> [EncodedPacket] {
        guard !flushed else { throw MediaError("encode sound", path: encoderName, message: "the encoder was flushed") }
        let channels = parameters.format.channels
        let count = samples.count / channels
        guard count > 0 else { return [] }
        framesIn += Int64(count)
        try resample(samples, frames: count)
        return try drain(final: false)
    }

    /// Encodes what is held and drains the encoder: the last packets of a take.
    /// They end with the last frame fed: a packet wholly after it (the padding
    /// of the encoder's last frame) is left out, the one across it shortened.
    public func flush() throws(MediaError) -> [EncodedPacket] {
        guard !flushed else { return [] }
        try resample(nil, frames: 0)
        var packets = try drain(final: true)
        flushed = true
        try check(avcodec_send_frame(context, nil), "finish the sound", path: encoderName)
        packets += try receive()
        let end = framesOut
        packets.removeAll { $0.pts >= end }
        if let last = packets.indices.last { packets[last].duration = min(packets[last].duration, end - packets[last].pts) }
        return packets
    }

    /// Passes frames (nil: what the resampler holds) through the resampler into the FIFO.
    private func resample(_ samples: [Int16]?, frames count: Int) throws(MediaError) {
        let room = swr_get_out_samples(resampler, Int32(count)) + 64
        if room > convertedCapacity {
            if let converted {
                av_freep(converted)
                converted.deallocate()
            }
            let planes = av_sample_fmt_is_planar(context.pointee.sample_fmt) != 0 ? parameters.format.channels : 1
            converted = .allocate(capacity: planes)
            converted!.initialize(repeating: nil, count: planes)
            try check(
                av_samples_alloc(converted, nil, Int32(parameters.format.channels), room, context.pointee.sample_fmt, 0),
                "allocate sound buffers", path: encoderName)
            convertedCapacity = room
        }
        let made: Int32
        if let samples {
            made = samples.withUnsafeBytes { bytes in
                var input: UnsafePointer<UInt8>? = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return swr_convert(resampler, converted, convertedCapacity, &input, Int32(count))
            }
        } else {
            made = swr_convert(resampler, converted, convertedCapacity, nil, 0)
        }
        try check(made, "resample the sound", path: encoderName)
        guard made > 0 else { return }
        framesOut += Int64(made)
        let written = converted!.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) {
            av_audio_fifo_write(fifo, $0, made)
        }
        try check(written, "buffer the sound", path: encoderName)
    }

    /// Encodes whole frames from the FIFO (and, when `final`, what is left of one).
    private func drain(final: Bool) throws(MediaError) -> [EncodedPacket] {
        guard let frame else { return [] }
        var packets: [EncodedPacket] = []
        let size = Int32(parameters.frameSize)
        while av_audio_fifo_size(fifo) >= size || (final && av_audio_fifo_size(fifo) > 0) {
            let count = min(size, av_audio_fifo_size(fifo))
            try check(av_frame_make_writable(frame), "make the frame writable", path: encoderName)
            frame.pointee.nb_samples = count
            let read = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(fifo, $0, count) }
            }
            try check(read, "buffer the sound", path: encoderName)
            frame.pointee.pts = nextPts
            nextPts += Int64(count)
            try check(withSignalsBlocked { avcodec_send_frame(context, frame) }, "encode sound", path: encoderName)
            packets += try receive()
        }
        frame.pointee.nb_samples = size
        return packets
    }

    private func receive() throws(MediaError) -> [EncodedPacket] {
        try receivePackets(
            from: context, into: packet, "encode sound", path: encoderName, duration: Int64(parameters.frameSize),
            allKeyframes: true)
    }
}

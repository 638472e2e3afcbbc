import CAV
import SlateCore

/// Converts interleaved 16-bit sound to another rate and channel count with
/// libswresample (`swr_convert`, its default filter and channel matrix): how
/// a take of another format joins an export's sound.
enum SoundConverter {
    /// `samples` of `format` as `target`; the same array when the formats are equal.
    static func convert(
        _ samples: [Int16], from format: AudioFormat, to target: AudioFormat, path: String
    ) throws(MediaError) -> [Int16] {
        guard format != target, !samples.isEmpty else { return samples }
        var resampler: OpaquePointer?
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(format.channels))
        av_channel_layout_default(&outLayout, Int32(target.channels))
        defer {
            swr_free(&resampler)
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        try check(
            swr_alloc_set_opts2(
                &resampler, &outLayout, AV_SAMPLE_FMT_S16, Int32(target.rate), &inLayout, AV_SAMPLE_FMT_S16,
                Int32(format.rate), 0, nil), "convert the sound from \(format) to \(target)", path: path)
        try check(swr_init(resampler), "convert the sound from \(format) to \(target)", path: path)
        let frames = Int32(samples.count / format.channels)
        let room = swr_get_out_samples(resampler, frames) + 64
        guard room > 0 else { return [] }
        var out = [Int16](repeating: 0, count: Int(room) * target.channels)
        let made = out.withUnsafeMutableBytes { output in
            samples.withUnsafeBytes { input in
                var into: UnsafeMutablePointer<UInt8>? = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
                var from: UnsafePointer<UInt8>? = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return swr_convert(resampler, &into, room, &from, frames)
            }
        }
        try check(made, "convert the sound from \(format) to \(target)", path: path)
        // What the filter still holds: the last frames.
        let tail = out.withUnsafeMutableBytes { output in
            var into: UnsafeMutablePointer<UInt8>? = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
                .advanced(by: Int(made) * MemoryLayout<Int16>.size * target.channels)
            return swr_convert(resampler, &into, room - made, nil, 0)
        }
        try check(tail, "convert the sound from \(format) to \(target)", path: path)
        return Array(out.prefix(Int(made + tail) * target.channels))
    }
}

import CALSA
import SlateCore
import SlateSystem

/// An open ALSA capture stream (`snd_pcm_t`): interleaved signed 16-bit native-endian
/// samples at one `AudioFormat`, read a period (about 10 ms) at a time, each block
/// stamped with the `CLOCK_MONOTONIC` time of its first frame. Closed when released.
///
/// A `hw:` device must offer the format itself; `plughw:` and `default` convert.
/// Overruns are recovered from and counted; the frames they lost come back as
/// silence (`AudioBlock.filled`), measured from the timestamps, so positions keep
/// counting the device's clock (`SoundTimeline`). A device that goes away
/// throws an `ALSAError` whose `isDeviceGone` is true.
///
/// Not thread-safe: one thread opens, reads and releases a stream.
public final class PCMCapture {
    public let device: String
    public let format: AudioFormat
    /// Frames per period: one `read()` returns this many (plus any silence filled in).
    public let periodFrames: Int
    /// Frames the device's buffer holds: how long a reader may stall before an overrun.
    public let bufferFrames: Int
    /// Overruns (and suspends) recovered from since the stream opened.
    public private(set) var overruns = 0
    /// Frames captured after the last block returned and already waiting when it
    /// was read: how far behind the device the reader was.
    public private(set) var waiting = 0
    private let pcm: OpaquePointer
    private var timeline: SoundTimeline
    private var samples: [Int16]

    /// Opens `device` for capture at `format`, with periods of `format.rate / 100`
    /// frames and a buffer of `periods` of them. The capture starts with the first `read()`.
    public init(device: String, format: AudioFormat, periods: Int = 10) throws(ALSAError) {
        PCMPlayback.captureLibraryMessages()
        self.device = device
        self.format = format
        guard format.rate > 0, format.channels > 0, let rate = UInt32(exactly: format.rate),
            let channels = UInt32(exactly: format.channels), periods >= 2
        else {
            throw ALSAError("capture \(format) in \(periods) periods", device: device, code: -EINVAL)
        }
        var handle: OpaquePointer?
        // Non-blocking, so that a busy device fails at once; reads then block.
        let opened = PCMPlayback.call { snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) }
        guard opened.result == 0, let handle else {
            throw ALSAError("open the device for capture", device: device, code: opened.result, detail: opened.detail)
        }
        var configured: (period: Int, buffer: Int)
        do throws(ALSAError) {
            try Self.check("switch the device to blocking reads", device, PCMPlayback.call { snd_pcm_nonblock(handle, 0) })
            configured = try Self.configureHardware(
                handle, device: device, rate: rate, channels: channels, period: max(16, format.rate / 100),
                periods: periods)
            try Self.configureSoftware(handle, device: device)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        periodFrames = configured.period
        bufferFrames = configured.buffer
        timeline = SoundTimeline(format: format)
        samples = [Int16](repeating: 0, count: configured.period * format.channels)
    }

    deinit { snd_pcm_close(pcm) }

    /// Waits for the next period and returns it (`snd_pcm_readi`), with the time
    /// of its first frame (`snd_pcm_htimestamp`: the stamp of the last hardware
    /// pointer update, less the frames captured since this block's first) and
    /// its position. A period cut short by an overrun comes back short. After an overrun (`-EPIPE`) or a suspend (`-ESTRPIPE`) the
    /// stream is recovered (`snd_pcm_recover`) and the block starts with the
    /// frames lost, as silence.
    public func read() throws(ALSAError) -> AudioBlock {
        var overran = false
        var attempts = 0
        while true {
            let result = samples.withUnsafeMutableBufferPointer { buffer in
                PCMPlayback.call {
                    Int32(truncatingIfNeeded: snd_pcm_readi(pcm, buffer.baseAddress!, snd_pcm_uframes_t(periodFrames)))
                }
            }
            if result.result > 0 {
                let read = Int(result.result)
                // A read cut short by an overrun has frames from before it, straight
                // after the last block's, and no current timestamp to go by.
                var time = firstFrameTime(framesRead: read)
                if snd_pcm_state(pcm) == SND_PCM_STATE_XRUN, let lastEnd = timeline.lastEnd { time = lastEnd }
                let captured = Array(samples.prefix(read * format.channels))
                return timeline.block(samples: captured, time: time, afterOverrun: overran)
            }
            attempts += 1
            let code = result.result
            if code == 0 || code == -EAGAIN || code == -EINTR, attempts <= 100 { continue }
            if code == -EPIPE || code == -ESTRPIPE, attempts <= 100 {
                overruns += 1
                overran = true
                let recovered = PCMPlayback.call { snd_pcm_recover(pcm, code, 1) }
                guard recovered.result == 0 else {
                    throw failure("recover from an overrun", recovered.result, recovered.detail)
                }
                continue
            }
            throw failure("read samples", code, result.detail)
        }
    }

    /// The error for a failed call, marked gone when the device went away.
    private func failure(_ operation: String, _ code: Int32, _ detail: String?) -> ALSAError {
        let gone = code == -ENODEV || snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED
        return ALSAError(operation, device: device, code: code, detail: detail, deviceGone: gone)
    }

    /// When the first of the `framesRead` frames just read was captured. Devices
    /// without hardware timestamps (some plugins) give none: then now, less the
    /// frames waiting and the frames read.
    private func firstFrameTime(framesRead: Int) -> Instant {
        var avail = snd_pcm_uframes_t(0)
        var stamp = snd_htimestamp_t()
        let stamped = snd_pcm_htimestamp(pcm, &avail, &stamp) == 0 && (stamp.tv_sec != 0 || stamp.tv_nsec != 0)
        var at = Instant(seconds: Int64(stamp.tv_sec), microseconds: Int64(stamp.tv_nsec) / 1000)
        if !stamped {
            at = MonotonicClock.now()
            let waiting = snd_pcm_avail(pcm)
            avail = snd_pcm_uframes_t(max(0, waiting))
        }
        waiting = Int(avail)
        let behind = format.duration(ofFrames: waiting + framesRead)
        return Instant(microseconds: at.microseconds - behind.microseconds)
    }

    // MARK: Configuration

    private static func check(_ operation: String, _ device: String, _ call: (result: Int32, detail: String?))
        throws(ALSAError)
    {
        guard call.result >= 0 else { throw ALSAError(operation, device: device, code: call.result, detail: call.detail) }
    }

    /// `snd_pcm_hw_params`: interleaved native S16 at exactly `rate` and `channels`;
    /// a period near `period` frames and a buffer near `periods` of them. What it got.
    private static func configureHardware(
        _ pcm: OpaquePointer, device: String, rate: UInt32, channels: UInt32, period: Int, periods: Int
    ) throws(ALSAError) -> (period: Int, buffer: Int) {
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) == 0, let params = allocated else {
            throw ALSAError("allocate hardware parameters", device: device, code: -ENOMEM)
        }
        defer { snd_pcm_hw_params_free(params) }
        try check("read the device's hardware parameters", device, PCMPlayback.call { snd_pcm_hw_params_any(pcm, params) })
        let offered = Offer(params)
        try check(
            "capture interleaved samples", device,
            PCMPlayback.call { snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED) })
        try check(
            "capture 16-bit samples (the device offers \(offered.formats))", device,
            PCMPlayback.call { snd_pcm_hw_params_set_format(pcm, params, PCMPlayback.nativeS16) })
        try check(
            "capture \(channels) channel\(channels == 1 ? "" : "s") (the device offers \(offered.channels))", device,
            PCMPlayback.call { snd_pcm_hw_params_set_channels(pcm, params, channels) })
        try check(
            "capture at \(rate) Hz (the device offers \(offered.rates))", device,
            PCMPlayback.call { snd_pcm_hw_params_set_rate(pcm, params, rate, 0) })
        var periodSize = snd_pcm_uframes_t(period)
        var direction: Int32 = 0
        try check(
            "set a period of \(period) frames", device,
            PCMPlayback.call { snd_pcm_hw_params_set_period_size_near(pcm, params, &periodSize, &direction) })
        var bufferSize = periodSize * snd_pcm_uframes_t(periods)
        try check(
            "set a buffer of \(bufferSize) frames", device,
            PCMPlayback.call { snd_pcm_hw_params_set_buffer_size_near(pcm, params, &bufferSize) })
        try check("apply the hardware parameters", device, PCMPlayback.call { snd_pcm_hw_params(pcm, params) })
        return (Int(periodSize), Int(bufferSize))
    }

    /// `snd_pcm_sw_params`: monotonic timestamps on every pointer update, and a
    /// start at the first read.
    private static func configureSoftware(_ pcm: OpaquePointer, device: String) throws(ALSAError) {
        var allocated: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&allocated) == 0, let params = allocated else {
            throw ALSAError("allocate software parameters", device: device, code: -ENOMEM)
        }
        defer { snd_pcm_sw_params_free(params) }
        try check("read the software parameters", device, PCMPlayback.call { snd_pcm_sw_params_current(pcm, params) })
        try check(
            "enable timestamps", device,
            PCMPlayback.call { snd_pcm_sw_params_set_tstamp_mode(pcm, params, SND_PCM_TSTAMP_ENABLE) })
        try check(
            "use monotonic timestamps", device,
            PCMPlayback.call { snd_pcm_sw_params_set_tstamp_type(pcm, params, SND_PCM_TSTAMP_TYPE_MONOTONIC) })
        try check(
            "start capturing at the first read", device,
            PCMPlayback.call { snd_pcm_sw_params_set_start_threshold(pcm, params, 1) })
        try check("apply the software parameters", device, PCMPlayback.call { snd_pcm_sw_params(pcm, params) })
    }

    /// What a device's unrestricted hardware parameters allow, in words for errors.
    struct Offer {
        var channels: String
        var rates: String
        var formats: String

        init(_ params: OpaquePointer) {
            var low: UInt32 = 0
            var high: UInt32 = 0
            var direction: Int32 = 0
            snd_pcm_hw_params_get_channels_min(params, &low)
            snd_pcm_hw_params_get_channels_max(params, &high)
            channels = low == high ? "\(low) channel\(low == 1 ? "" : "s")" : "\(low)–\(high) channels"
            snd_pcm_hw_params_get_rate_min(params, &low, &direction)
            snd_pcm_hw_params_get_rate_max(params, &high, &direction)
            rates = low == high ? "\(low) Hz" : "\(low)–\(high) Hz"
            var mask: OpaquePointer?
            var names: [String] = []
            if snd_pcm_format_mask_malloc(&mask) == 0, let mask {
                snd_pcm_hw_params_get_format_mask(params, mask)
                for value in 0...Int32(SND_PCM_FORMAT_LAST.rawValue) {
                    let format = snd_pcm_format_t(rawValue: value)
                    if snd_pcm_format_mask_test(mask, format) != 0, let name = snd_pcm_format_name(format) {
                        names.append(String(cString: name))
                    }
                }
                snd_pcm_format_mask_free(mask)
            }
            formats = names.isEmpty ? "no sample format" : names.joined(separator: ", ")
        }
    }
}

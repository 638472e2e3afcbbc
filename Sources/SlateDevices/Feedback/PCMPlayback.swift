import CALSA
import SlateCore
import SlateSystem

/// A failed ALSA call: what Slate was doing, on which device, and ALSA's reason.
public struct ALSAError: Error, Sendable, CustomStringConvertible {
    /// What failed, e.g. `open the device for playback`.
    public var operation: String
    /// The ALSA device name, e.g. `hw:0,0` or `default`.
    public var device: String
    /// The negative error code the call returned.
    public var code: Int32
    /// alsa-lib's own first message about the failure, e.g. `Cannot get card index for 99`.
    public var detail: String?
    /// The device went away while open (unplugged, its driver unbound): a read
    /// failed with `-ENODEV`, or on a stream ALSA marks disconnected (`-EBADFD`, `-EIO`).
    public var isDeviceGone: Bool

    public init(_ operation: String, device: String, code: Int32, detail: String? = nil, deviceGone: Bool = false) {
        self.operation = operation
        self.device = device
        self.code = code
        self.detail = detail
        isDeviceGone = deviceGone
    }

    /// The failure without the device: `cannot open the device for playback: Invalid argument (alsa-lib: ...)`.
    public var reason: String {
        var text = "cannot \(operation): \(String(cString: snd_strerror(code)))"
        if let detail, !detail.isEmpty { text += " (alsa-lib: \(detail))" }
        return text
    }

    /// `ALSA device 'hw:99,0': cannot open the device for playback: ...`, or
    /// `ALSA device 'hw:1,0' is gone: cannot read samples: No such device`.
    public var description: String { "ALSA device '\(device)'\(isDeviceGone ? " is gone" : ""): \(reason)" }
}

/// An open ALSA playback stream (`snd_pcm_t`), closed when released.
///
/// Not thread-safe: one thread uses a stream at a time.
public final class PCMPlayback {
    public let device: String
    private let pcm: OpaquePointer

    /// Opens `device` for playback. Opening does not wait for a busy device:
    /// it fails with "Device or resource busy" instead.
    public init(device: String) throws(ALSAError) {
        PCMPlayback.captureLibraryMessages()
        self.device = device
        var handle: OpaquePointer?
        let opened = PCMPlayback.call { snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK) }
        guard opened.result == 0, let handle else {
            throw ALSAError("open the device for playback", device: device, code: opened.result, detail: opened.detail)
        }
        pcm = handle
        // Writes and drain block; only the open must not.
        let blocking = PCMPlayback.call { snd_pcm_nonblock(handle, 0) }
        guard blocking.result == 0 else {
            snd_pcm_close(handle)
            throw ALSAError(
                "switch the device to blocking writes", device: device, code: blocking.result, detail: blocking.detail)
        }
    }

    deinit { snd_pcm_close(pcm) }

    /// `snd_pcm_set_params`: interleaved signed 16-bit samples at `sampleRate` and
    /// `channels`, resampled by ALSA where the device needs it, with `latency` microseconds of buffer.
    public func configure(sampleRate: Int, channels: Int, latency: UInt32 = 100_000) throws(ALSAError) {
        guard let rate = UInt32(exactly: sampleRate), let count = UInt32(exactly: channels) else {
            throw ALSAError("set \(sampleRate) Hz, \(channels) channels", device: device, code: -EINVAL)
        }
        let set = PCMPlayback.call {
            snd_pcm_set_params(pcm, PCMPlayback.nativeS16, SND_PCM_ACCESS_RW_INTERLEAVED, count, rate, 1, latency)
        }
        guard set.result == 0 else {
            throw ALSAError(
                "set 16-bit \(channels == 1 ? "mono" : "\(channels)-channel") playback at \(sampleRate) Hz",
                device: device, code: set.result, detail: set.detail)
        }
    }

    /// Writes interleaved `samples` in pieces of about 20 ms, recovering from
    /// underruns (`snd_pcm_recover`). Between pieces it asks `shouldStop`; returns
    /// false when that stopped the writing early, true when every sample was written.
    public func write(
        _ samples: [Int16], channels: Int, sampleRate: Int, shouldStop: () -> Bool = { false }
    ) throws(ALSAError) -> Bool {
        let frames = channels > 0 ? samples.count / channels : 0
        let piece = max(64, sampleRate / 50)
        var written = 0
        var recoveries = 0
        while written < frames {
            if shouldStop() { return false }
            let count = min(piece, frames - written)
            let result = samples.withUnsafeBufferPointer { buffer in
                PCMPlayback.call {
                    Int32(
                        truncatingIfNeeded: snd_pcm_writei(
                            pcm, buffer.baseAddress! + written * channels, snd_pcm_uframes_t(count)))
                }
            }
            if result.result >= 0 {
                written += Int(result.result)
                continue
            }
            // An underrun (-EPIPE), a suspend (-ESTRPIPE) or a signal (-EINTR): recover and go on.
            recoveries += 1
            let recovered = snd_pcm_recover(pcm, result.result, 1)
            guard recovered == 0, recoveries <= 100 else {
                throw ALSAError("write samples", device: device, code: result.result, detail: result.detail)
            }
        }
        return true
    }

    /// Waits until everything written has played (`snd_pcm_drain`).
    public func drain() throws(ALSAError) {
        let drained = PCMPlayback.call { snd_pcm_drain(pcm) }
        guard drained.result == 0 else {
            throw ALSAError("drain the playback", device: device, code: drained.result, detail: drained.detail)
        }
    }

    /// Stops at once, discarding what has not played (`snd_pcm_drop`).
    public func drop() { snd_pcm_drop(pcm) }

    /// Plays `sound` on `device` and returns when it has finished (or, when
    /// `shouldStop` returns true, as soon as it notices).
    public static func play(
        _ sound: SoundClip, device: String, latency: UInt32 = 100_000, shouldStop: () -> Bool = { false }
    ) throws(ALSAError) {
        let stream = try PCMPlayback(device: device)
        try stream.configure(sampleRate: sound.sampleRate, channels: sound.channels, latency: latency)
        if try stream.write(sound.samples, channels: sound.channels, sampleRate: sound.sampleRate, shouldStop: shouldStop) {
            try stream.drain()
        } else {
            stream.drop()
        }
    }

    #if _endian(big)
        static let nativeS16 = SND_PCM_FORMAT_S16_BE
    #else
        static let nativeS16 = SND_PCM_FORMAT_S16_LE
    #endif

    /// Sends alsa-lib's messages to the per-thread buffer rather than standard error (process-wide, once).
    private static let installHandler: Void = slate_alsa_capture_messages()

    static func captureLibraryMessages() { _ = installHandler }

    /// Runs an ALSA call with alsa-lib's message buffer cleared first, and returns
    /// its result with the first message alsa-lib gave during it.
    static func call(_ body: () -> Int32) -> (result: Int32, detail: String?) {
        slate_alsa_clear_message()
        let result = body()
        let detail = result < 0 ? String(cString: slate_alsa_message()) : nil
        return (result, detail?.isEmpty == false ? detail : nil)
    }
}

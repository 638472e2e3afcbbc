import CALSA
import SlateCore

/// The ALSA capture devices present: each card's capture PCM devices
/// (`snd_card_next`, `snd_ctl_pcm_next_device`, `snd_ctl_pcm_info`), each asked
/// what it accepts by opening it without blocking.
public enum SoundCaptureDevices {
    /// Every capture PCM device of every card, in card then device order. A
    /// device another program holds is listed as busy; one that cannot be asked
    /// is listed with the reason.
    public static func list() -> [SoundDeviceLine] {
        PCMPlayback.captureLibraryMessages()
        var lines: [SoundDeviceLine] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            lines += devices(ofCard: card)
        }
        return lines
    }

    /// The error for `device`, which could not be opened for capture, listing
    /// the capture devices present, for a command or the daemon to print.
    public static func missingDeviceMessage(_ device: String, reason: String? = nil) -> String {
        SoundDeviceLine.missing(device, reason: reason, present: list())
    }

    private static func devices(ofCard card: Int32) -> [SoundDeviceLine] {
        var opened: OpaquePointer?
        guard snd_ctl_open(&opened, "hw:\(card)", 0) == 0, let control = opened else { return [] }
        defer { snd_ctl_close(control) }
        var cardID = "\(card)"
        var cardName = ""
        var cardInfo: OpaquePointer?
        if snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo {
            if snd_ctl_card_info(control, cardInfo) == 0 {
                cardID = String(cString: snd_ctl_card_info_get_id(cardInfo))
                cardName = String(cString: snd_ctl_card_info_get_name(cardInfo))
            }
            snd_ctl_card_info_free(cardInfo)
        }
        var allocated: OpaquePointer?
        guard snd_pcm_info_malloc(&allocated) == 0, let info = allocated else { return [] }
        defer { snd_pcm_info_free(info) }
        var lines: [SoundDeviceLine] = []
        var number: Int32 = -1
        while snd_ctl_pcm_next_device(control, &number) == 0, number >= 0 {
            snd_pcm_info_set_device(info, UInt32(number))
            snd_pcm_info_set_subdevice(info, 0)
            snd_pcm_info_set_stream(info, SND_PCM_STREAM_CAPTURE)
            // -ENOENT: the device has no capture stream.
            guard snd_ctl_pcm_info(control, info) == 0 else { continue }
            var line = SoundDeviceLine(
                device: "hw:CARD=\(cardID),DEV=\(number)", card: Int(card), cardID: cardID, cardName: cardName,
                name: String(cString: snd_pcm_info_get_name(info)))
            ask(&line)
            lines.append(line)
        }
        return lines
    }

    /// Fills in the channels and rates `line`'s device accepts.
    private static func ask(_ line: inout SoundDeviceLine) {
        var opened: OpaquePointer?
        let device = line.device
        let open = PCMPlayback.call { snd_pcm_open(&opened, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) }
        guard open.result == 0, let pcm = opened else {
            if open.result == -EBUSY {
                line.busy = true
            } else {
                line.error =
                    ALSAError("open the device for capture", device: device, code: open.result, detail: open.detail)
                    .reason
            }
            return
        }
        defer { snd_pcm_close(pcm) }
        var allocated: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&allocated) == 0, let params = allocated else { return }
        defer { snd_pcm_hw_params_free(params) }
        let any = PCMPlayback.call { snd_pcm_hw_params_any(pcm, params) }
        guard any.result >= 0 else {
            line.error =
                ALSAError("read the hardware parameters", device: device, code: any.result, detail: any.detail)
                .reason
            return
        }
        var low: UInt32 = 0
        var high: UInt32 = 0
        snd_pcm_hw_params_get_channels_min(params, &low)
        snd_pcm_hw_params_get_channels_max(params, &high)
        line.minChannels = Int(low)
        line.maxChannels = Int(high)
        line.rates = SoundDeviceLine.standardRates.filter { snd_pcm_hw_params_test_rate(pcm, params, UInt32($0), 0) == 0 }
    }
}

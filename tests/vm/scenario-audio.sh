#!/usr/bin/env bash
# slate audio on snd-aloop (card 0; what is played on hw:0,0,N is captured on
# hw:0,1,N): the capture devices listed with their channels and rates; the
# meter's peak within 1 dB of a -12 dBFS tone played with aplay, and silence
# before it below -60 dB; each block's time on CLOCK_MONOTONIC and in line
# with its position; an overrun (the reader stopped for 0.5 s) filled with
# silence that keeps positions on time; the card unbound while the meter runs:
# exit status 1 and a message naming the device, then bound again. The checks
# and figures are tests/vm/audio_capture.py's.
# shellcheck source=tests/vm/lib.sh
# rig-vm-measures: time
. tests/vm/lib.sh

driver=/sys/bus/platform/drivers/snd_aloop
rebind() {
    [[ -e $driver/snd_aloop.0 ]] || echo snd_aloop.0 >"$driver/bind" 2>/dev/null || true
    remove_devices
}
trap rebind EXIT

check "card 0 is snd-aloop" grep -q '^ *0 \[Loopback *\]' /proc/asound/cards
check "aplay is installed" command -v aplay
# The first start of the binary in a fresh VM reads its libraries over 9p.
"$SLATE" --help >/dev/null

check "slate audio: devices, level, clock, overrun, unplug" env SLATE="$SLATE" python3 tests/vm/audio_capture.py
finish

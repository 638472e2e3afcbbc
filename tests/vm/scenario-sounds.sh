#!/usr/bin/env bash
# Scenario: `slate sound` is heard on a real ALSA card.
#
# Runs inside the test VM, where snd-aloop is loaded as card 0: what is played
# on hw:0,0,N comes out of hw:0,1,N. The script records hw:0,1,0 with arecord,
# plays begin-video-recording on hw:0,0,0 with `slate sound` half a second into
# the recording, and checks the recording (Python 3, standard library only):
#
#   - near-silence from the start of the recording until the sound;
#   - the sound starts within 150 ms of when `slate sound` ran, and ends before
#     `slate sound` returned (+ 150 ms);
#   - it is loud (10 ms RMS above -30 dBFS) for 150 to 400 ms, and silent after;
#   - its first tone is near 880 Hz and its second near 1318 Hz (rising).
#
# Both sides of a snd-aloop cable must use one format. The capture side is
# opened first and so sets it: S16_LE, 48 kHz, mono, the format of the built-in
# sounds, with the 100 ms buffer `slate sound` asks for.
#
# Usage: tests/vm/scenario-sounds.sh   (from anywhere; SLATE=path overrides .build/debug/slate)
# Exit status 0 when every check passes; otherwise 1, with what was measured.
# rig-vm-measures: time
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
slate=${SLATE:-.build/debug/slate}
card=0
capture_device=hw:$card,1,0
playback_device=hw:$card,0,0
status_file=/proc/asound/card$card/pcm1c/sub0/status
lead=0.5

fail() {
    echo "scenario-sounds: FAIL: $*" >&2
    exit 1
}

# Preconditions, each with the reason it failed.
[[ -x $slate ]] || fail "$slate is missing or not executable (build with 'swift build' first)"
for tool in arecord python3; do
    command -v "$tool" > /dev/null || fail "$tool is not installed"
done
grep -q "^ *$card \[.*\]: Loopback" /proc/asound/cards 2> /dev/null \
    || fail "card $card is not snd-aloop (modprobe snd-aloop index=$card); /proc/asound/cards: $(cat /proc/asound/cards 2>&1 | tr '\n' ' ')"
[[ -d $root/sounds ]] && export SLATE_SOUNDS=$root/sounds

work=$(mktemp -d)
recorder=""
cleanup() {
    [[ -n $recorder ]] && kill "$recorder" 2> /dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The first start of the binary in a fresh VM reads its libraries over 9p and
# can take longer than the recording: start it once beforehand.
"$slate" --help > /dev/null

# The recording runs until half a second after `slate sound` returns, however
# long a loaded machine takes to start it (at most a minute).
echo "scenario-sounds: recording $capture_device"
arecord -q -D "$capture_device" -f S16_LE -r 48000 -c 1 -B 100000 -F 25000 -d 60 "$work/cap.wav" 2> "$work/arecord.err" &
recorder=$!

# The recording's time 0 is when the capture stream starts running: wait for it,
# so that the expected position of the sound in the file is known to ~10 ms.
started=""
for _ in $(seq 500); do
    if grep -q "state: RUNNING" "$status_file" 2> /dev/null; then
        started=$EPOCHREALTIME
        break
    fi
    kill -0 "$recorder" 2> /dev/null || break
    sleep 0.01
done
if [[ -z $started ]]; then
    kill -0 "$recorder" 2> /dev/null || fail "arecord stopped: $(cat "$work/arecord.err")"
    fail "the capture stream of $capture_device never reached RUNNING in $status_file"
fi

sleep "$lead"
echo "scenario-sounds: playing begin-video-recording on $playback_device"
play_start=$EPOCHREALTIME
if ! "$slate" sound begin-video-recording --device "$playback_device" > "$work/slate.out" 2> "$work/slate.err"; then
    fail "slate sound failed: $(cat "$work/slate.err")"
fi
play_end=$EPOCHREALTIME
sed 's/^/scenario-sounds: slate: /' "$work/slate.out"

sleep 0.5
kill -INT "$recorder" 2> /dev/null || true
wait "$recorder" || true
recorder=""
[[ -s $work/cap.wav ]] || fail "arecord recorded nothing: $(cat "$work/arecord.err")"

python3 - "$work/cap.wav" "$started" "$play_start" "$play_end" << 'EOF'
import math
import struct
import sys
import wave

path, started, play_start, play_end = sys.argv[1], *map(float, sys.argv[2:5])
expected_from = play_start - started  # seconds into the recording
expected_to = play_end - started
FRAME = 0.010
LOUD = 1036.0  # RMS of a 10 ms frame: -30 dBFS
QUIET = 33.0  # -60 dBFS
TOLERANCE = 0.150

failures = []


def check(ok, text):
    print(f"scenario-sounds: {'ok  ' if ok else 'FAIL'} {text}")
    if not ok:
        failures.append(text)


with wave.open(path, "rb") as capture:
    params = (capture.getnchannels(), capture.getsampwidth(), capture.getframerate())
    raw = capture.readframes(capture.getnframes())
if params != (1, 2, 48000):
    print(f"scenario-sounds: FAIL the recording is {params} (channels, bytes, rate), not (1, 2, 48000)")
    sys.exit(1)
rate = 48000
samples = struct.unpack(f"<{len(raw) // 2}h", raw[: len(raw) // 2 * 2])
size = int(rate * FRAME)
frames = [samples[i : i + size] for i in range(0, len(samples) - size + 1, size)]
rms = [math.sqrt(sum(s * s for s in f) / size) for f in frames]
print(f"scenario-sounds: recorded {len(samples) / rate:.3f} s; slate sound ran {expected_from:.3f} s "
      f"to {expected_to:.3f} s into it")
if not rms:
    print("scenario-sounds: FAIL the recording is empty")
    sys.exit(1)

loud = [i for i, value in enumerate(rms) if value > LOUD]
if not loud:
    check(False, f"a sound was recorded: the loudest 10 ms has RMS {max(rms):.0f} (needs > {LOUD:.0f})")
    sys.exit(1)
onset, last = loud[0] * FRAME, (loud[-1] + 1) * FRAME
length = last - onset
print(f"scenario-sounds: sound from {onset:.3f} s to {last:.3f} s ({length * 1000:.0f} ms), "
      f"loudest 10 ms RMS {max(rms):.0f}")

before = rms[: max(0, loud[0] - 2)]
check(len(before) * FRAME >= 0.3, f"at least 300 ms recorded before the sound ({len(before) * FRAME:.3f} s)")
if before:
    check(max(before) < QUIET, f"near-silence before the sound: loudest 10 ms RMS {max(before):.1f} (needs < {QUIET:.0f})")
after = rms[loud[-1] + 3 :]
check(not after or max(after) < QUIET,
      f"near-silence after the sound: loudest 10 ms RMS {max(after) if after else 0:.1f} (needs < {QUIET:.0f})")
check(expected_from - TOLERANCE <= onset <= expected_to + TOLERANCE,
      f"the sound starts while slate sound runs: {onset:.3f} s in [{expected_from - TOLERANCE:.3f}, {expected_to + TOLERANCE:.3f}]")
check(last <= expected_to + TOLERANCE, f"the sound ends before slate sound returned: {last:.3f} s <= {expected_to + TOLERANCE:.3f}")
check(0.150 <= length <= 0.400, f"the sound lasts 150 to 400 ms: {length * 1000:.0f} ms")


def frequency(start, end):
    # Zero crossings over the window's loud milliseconds only: under emulation
    # the loopback may drop or repeat a period, leaving a gap in the tone.
    block = rate // 1000
    crossings = kept = 0
    for at in range(int(start * rate), int(end * rate) - block, block):
        part = samples[at : at + block + 1]
        if math.sqrt(sum(x * x for x in part) / len(part)) < QUIET:
            continue
        kept += 1
        crossings += sum(1 for a, b in zip(part, part[1:]) if (a < 0) != (b < 0))
    return crossings / 2 / (kept / 1000) if kept else 0.0


first = frequency(onset + 0.015, onset + 0.095)
second = frequency(last - 0.095, last - 0.015)
check(abs(first - 880) < 880 * 0.1, f"the first tone is near 880 Hz: {first:.0f} Hz")
check(abs(second - 1318.5) < 1318.5 * 0.1, f"the second tone is near 1318 Hz: {second:.0f} Hz")

if failures:
    print(f"scenario-sounds: FAIL ({len(failures)} check{'s' if len(failures) > 1 else ''} failed)")
    sys.exit(1)
print("scenario-sounds: PASS")
EOF

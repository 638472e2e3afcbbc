#!/usr/bin/env python3
"""`slate audio` on snd-aloop's capture side (Python 3, standard library only).

Run by tests/vm/scenario-audio.sh inside the rig VM, where card 0 is snd-aloop:
what is played on hw:0,0,N is captured on hw:0,1,N. Both sides of a cable use
one format; the capture side, opened first, sets it (48 kHz, mono, S16_LE).

  devices   `slate audio --json` lists both Loopback devices, 1-32 channels,
            every standard rate 8000-192000 Hz.
  level     `slate audio --meter hw:0,1,0 --json --seconds 3` while aplay plays
            a 1 kHz tone at -12 dBFS into hw:0,0,0: the meter's peak is within
            1 dB of -12, its RMS (the median 100 ms) within 1 dB of -15 while the
            tone plays, and every 100 ms before the tone reads below -60 dB.
  clock     `--blocks` for 3 s: each block's time is within 20 ms of the moment
            it was returned less its own length (when the reader was not behind),
            positions follow on, and position/rate against time is a line
            (residuals under 5 ms). The emulated machine stalls now and then, so
            timing checks take 95% of the blocks, and every one within 20-50 ms.
  overrun   the reader stopped (SIGSTOP) for 0.5 s and continued: at least one
            overrun, silence filled in for about the time lost, and the blocks
            after the gap still on the line fitted to the blocks before it
            (within 5 ms on average, each within 5 ms of that average).
  unplug    snd_aloop unbound while the meter runs: exit status 1 and a message
            naming the device; bound again, the card is listed again.

Usage: audio_capture.py [STEP...]   (all steps by default; SLATE=path/to/slate)
Exit status 0 when every check passed, 1 otherwise.
"""

import json
import math
import os
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import wave

SLATE = os.environ.get("SLATE", ".build/debug/slate")
CAPTURE = "hw:0,1,0"
PLAYBACK = "hw:0,0,0"
RATE = 48000
PERIOD = RATE // 100
DRIVER = "/sys/bus/platform/drivers/snd_aloop"
TONE_DB = -12.0

failures = []


def check(ok, text):
    print(f"  {'ok   ' if ok else 'FAIL '} {text}", flush=True)
    if not ok:
        failures.append(text)
    return ok


def note(text):
    print(f"        {text}", flush=True)


def decibels(value):
    return float(value)  # JSON writes silence as the string "-inf"


def meter(*options):
    """`slate audio --meter hw:0,1,0 --channels 1 OPTIONS`, running, its output piped."""
    command = [SLATE, "audio", "--meter", CAPTURE, "--channels", "1", "--rate", str(RATE), *options]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def fit(points):
    """Least squares y = a + b·x: (a, b)."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return mean_y - slope * mean_x, slope


def devices():
    print("slate audio --json", flush=True)
    run = subprocess.run([SLATE, "audio", "--json"], capture_output=True, text=True, timeout=60)
    found = {line["device"]: line for line in lines(run.stdout)}
    check(run.returncode == 0, f"exit status 0 ({run.returncode}{': ' + run.stderr.strip() if run.stderr else ''})")
    for number in (0, 1):
        name = f"hw:CARD=Loopback,DEV={number}"
        line = found.get(name, {})
        check(bool(line), f"{name} is listed ({', '.join(found) or 'nothing listed'})")
        if line:
            check(line["card"] == 0 and line["card_id"] == "Loopback" and line["name"] == "Loopback PCM",
                  f"{name}: card 0 Loopback, 'Loopback PCM' ({line['card']} {line['card_id']}, '{line['name']}')")
            check((line["min_channels"], line["max_channels"]) == (1, 32),
                  f"{name}: 1-32 channels ({line['min_channels']}-{line['max_channels']})")
            check(line["rates"] == [8000, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 192000],
                  f"{name}: every standard rate ({line['rates']})")
    table = subprocess.run([SLATE, "audio"], capture_output=True, text=True, timeout=60).stdout
    note(table.strip().replace("\n", "\n        "))
    check("hw:CARD=Loopback,DEV=1  0 Loopback  Loopback PCM  1–32 channels  8000–192000 Hz" in table,
          "the table shows the device, card, description, channels and rates")


def tone_file(folder):
    path = os.path.join(folder, "tone.wav")
    amplitude = 32768 * 10 ** (TONE_DB / 20)
    samples = [round(amplitude * math.sin(2 * math.pi * 1000 * n / RATE)) for n in range(RATE)]
    with wave.open(path, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return path


def level(folder):
    print(f"slate audio --meter {CAPTURE} --json --seconds 3, a 1 kHz tone at {TONE_DB:.0f} dBFS played after 1 s",
          flush=True)
    tone = tone_file(folder)
    process = meter("--json", "--seconds", "3")
    first = process.stdout.readline()  # the capture runs
    if not check(first.startswith("{"), "the meter prints JSON lines"):
        note(process.communicate(timeout=30)[1])
        return
    time.sleep(1.0)
    played_from = time.monotonic()
    played = subprocess.run(["aplay", "-q", "-D", PLAYBACK, tone], capture_output=True, text=True, timeout=30)
    played_to = time.monotonic()
    rest, errors = process.communicate(timeout=30)
    check(played.returncode == 0, f"aplay played the tone on {PLAYBACK} ({played.stderr.strip() or 'no error'})")
    check(process.returncode == 0, f"the meter ends by itself with status 0 ({process.returncode} {errors.strip()})")
    reports = lines(first + rest)
    levels = [line for line in reports if line["type"] == "level"]
    summary = next((line for line in reports if line["type"] == "summary"), None)
    check(len(levels) >= 25, f"about a line per 100 ms over 3 s ({len(levels)} lines)")
    # A line covers the 100 ms up to its time_us. The tone lasts 1 s from somewhere
    # in the first loud line's 100 ms: the lines after that one, to 0.9 s after
    # it, are all tone.
    before = [line for line in levels if line["time_us"] / 1e6 < played_from]
    loud = [line["time_us"] for line in levels if decibels(line["channels"][0]["peak_db"]) > -60]
    onset = loud[0] if loud else 0
    during = [line for line in levels if onset + 100_000 <= line["time_us"] <= onset + 900_000]
    note(f"aplay ran {played_from:.3f} to {played_to:.3f} s; the first loud 100 ms ended at {onset / 1e6:.3f} s")
    loudest_before = max((decibels(line["channels"][0]["peak_db"]) for line in before), default=math.inf)
    check(len(before) >= 5 and loudest_before < -60,
          f"before the tone every 100 ms is below -60 dB ({len(before)} lines, loudest {loudest_before})")
    peak = max(decibels(line["channels"][0]["peak_db"]) for line in levels)
    check(abs(peak - TONE_DB) <= 1, f"the meter's peak is within 1 dB of {TONE_DB:.1f} dBFS ({peak:.2f} dB)")
    # Under emulation the loopback may drop a period now and then (a gap in the
    # tone, as scenario-sounds notes): the median line is the tone's RMS.
    rms = sorted(decibels(line["channels"][0]["rms_db"]) for line in during)
    median = rms[len(rms) // 2] if rms else -math.inf
    check(len(rms) >= 6 and abs(median - (TONE_DB - 3.01)) <= 1,
          f"while it plays, the RMS is within 1 dB of {TONE_DB - 3.01:.2f} dB: median {median:.2f} dB "
          f"({len(rms)} lines, {min(rms, default=0):.2f} to {max(rms, default=0):.2f} dB)")
    if summary:
        total = decibels(summary["channels"][0]["peak_db"])
        check(abs(total - TONE_DB) <= 1 and summary["clipped"] == 0 and summary["overruns"] == 0,
              f"the summary: peak {total:.2f} dB, {summary['clipped']} clipped, {summary['overruns']} overruns, "
              f"{summary['seconds']} s")
    else:
        check(False, "a summary line ends the output")


def blocks_of(process, stop_after=None, pause=None):
    """The block lines of a `--blocks` meter. With `pause`, the process is stopped
    for that many seconds once `stop_after` frames have been read."""
    blocks = []
    paused = False
    for text in process.stdout:
        if not text.startswith("{"):
            continue
        line = json.loads(text)
        if line["type"] != "block":
            continue
        blocks.append(line)
        if pause and not paused and line["position"] >= stop_after:
            paused = True
            os.kill(process.pid, signal.SIGSTOP)
            time.sleep(pause)
            os.kill(process.pid, signal.SIGCONT)
    process.wait(timeout=30)
    return blocks


def spread(values):
    """`median m, 95% under p, largest x` of absolute values, in ms."""
    ordered = sorted(abs(value) for value in values)
    return (ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, len(ordered) * 95 // 100)], ordered[-1])


def mostly_under(values, limit, hard):
    """95% of the values under `limit` and every one under `hard` (ms): under
    emulation a block now and then waits for the emulated machine (TCG)."""
    median, p95, largest = spread(values)
    return p95 < limit and largest < hard, f"median {median:.1f} ms, 95% under {p95:.1f} ms, largest {largest:.1f} ms"


def clock():
    print(f"slate audio --meter {CAPTURE} --blocks --seconds 3", flush=True)
    process = meter("--blocks", "--seconds", "3")
    blocks = blocks_of(process)
    errors = process.stderr.read()
    check(process.returncode == 0, f"exit status 0 ({process.returncode} {errors.strip()})")
    if not check(len(blocks) >= 250, f"about 300 blocks of 10 ms ({len(blocks)})"):
        return
    overruns = blocks[-1]["overruns"]
    whole = [b for a, b in zip([None] + blocks, blocks) if (a is None or a["overruns"] == b["overruns"]) and not b["filled"]]
    note(f"{overruns} overrun(s) while reading")
    check(all(b["frames"] == PERIOD for b in whole[:-1]),
          f"every block is a period of {PERIOD} frames, but those an overrun cut short or filled")
    check(all(b["position"] == a["position"] + a["frames"] for a, b in zip(blocks, blocks[1:])),
          "each block's position follows on from the one before")
    # When returned, a block has just been captured: its first frame came its own
    # length earlier, plus what was captured after it if the reader was behind.
    current = [b for b in blocks if b["waiting"] < PERIOD and not b["filled"]]
    lags = [(b["read_us"] - b["frames"] * 1e6 / RATE - b["time_us"]) / 1000 for b in current]
    ok, text = mostly_under(lags, 20, 50)
    check(len(current) >= len(blocks) / 2 and ok,
          f"a block returned as soon as captured has its time within 20 ms of now less its length "
          f"({len(current)} of {len(blocks)} blocks; {text})")
    stamps = [(b["read_us"] - (b["frames"] + b["waiting"]) * 1e6 / RATE - b["time_us"]) / 1000
              for b in blocks if not b["filled"]]
    ok, text = mostly_under(stamps, 20, 50)
    check(ok and min(stamps) > -1, f"every block's time, plus its length and the frames waiting, is within 20 ms "
                                   f"before it was returned (earliest {min(stamps):.1f} ms; {text})")
    points = [(b["position"], b["time_us"] / 1e6) for b in blocks]
    start, slope = fit(points)
    ok, text = mostly_under([(t - (start + slope * p)) * 1000 for p, t in points], 5, 20)
    check(ok, f"position/rate against time is a line: residuals {text}; the device's rate {1 / slope:.1f} frames/s")


def overrun():
    print(f"slate audio --meter {CAPTURE} --blocks --seconds 4, stopped for 0.5 s after 1 s", flush=True)
    process = meter("--blocks", "--seconds", "4")
    blocks = blocks_of(process, stop_after=RATE, pause=0.5)
    errors = process.stderr.read()
    check(process.returncode == 0, f"exit status 0 ({process.returncode} {errors.strip()})")
    if not blocks:
        return
    overruns = blocks[-1]["overruns"]
    gaps = [b for b in blocks if b["filled"] > 0]
    check(overruns >= 1, f"at least one overrun ({overruns})")
    if not check(len(gaps) >= 1, f"silence filled in after the overrun ({len(gaps)} blocks with silence)"):
        return
    gap = gaps[0]
    first_after = blocks.index(gap)
    lost = gap["filled"] / RATE
    check(0.3 <= lost <= 0.8, f"the silence is about the time the reader stood still ({lost:.3f} s)")
    check(all(b["position"] == a["position"] + a["frames"] for a, b in zip(blocks, blocks[1:])),
          "positions follow on through the gap")
    before = [(b["position"], b["time_us"] / 1e6) for b in blocks[:first_after]]
    after = [(b["position"] + b["filled"], b["time_us"] / 1e6 + b["filled"] / RATE) for b in blocks[first_after:]]
    start, slope = fit(before)
    # Each block's time jitters by a few ms (snd-aloop moves its pointer on a
    # timer): compare the gap's both sides by their mean.
    off = [((t - (start + slope * p)) * 1000) for p, t in after]
    mean = sum(off) / len(off)
    worst = max(off, key=abs)
    check(abs(mean) < 5, f"after the gap, positions still match times on the line before it: "
                         f"{mean:.2f} ms off on average over {len(after)} blocks (largest {worst:.2f} ms)")
    ok, text = mostly_under([value - mean for value in off], 5, 20)
    check(ok, f"and the blocks after the gap are on that line shifted by the average: residuals {text}")


def unplug():
    print(f"slate audio --meter {CAPTURE} --json; snd_aloop unbound while it runs", flush=True)
    process = meter("--json")
    first = process.stdout.readline()
    check(first.startswith("{"), "the meter runs")
    unbound = {}

    def unbind():
        # Returns once every open file of the card is closed.
        with open(f"{DRIVER}/unbind", "w") as driver:
            driver.write("snd_aloop.0")
        unbound["at"] = time.monotonic()

    started = time.monotonic()
    worker = threading.Thread(target=unbind, daemon=True)
    worker.start()
    try:
        rest, errors = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        rest, errors = process.communicate()
        check(False, "the meter ends within 20 s of the unplug")
    ended = time.monotonic()
    worker.join(timeout=20)
    check(process.returncode == 1, f"exit status 1 ({process.returncode}) after {ended - started:.2f} s")
    message = errors.strip()
    check(CAPTURE in message and "gone" in message, f"the message names the device and says it is gone: {message!r}")
    check("at" in unbound, "the unbind finished once the meter closed the device")
    summary = [line for line in lines(rest) if line["type"] == "summary"]
    check(len(summary) == 1, "the capture's summary is printed before the error")
    with open(f"{DRIVER}/bind", "w") as driver:
        driver.write("snd_aloop.0")
    listed = []
    for _ in range(50):
        run = subprocess.run([SLATE, "audio", "--json"], capture_output=True, text=True, timeout=60)
        listed = [line["device"] for line in lines(run.stdout)]
        if "hw:CARD=Loopback,DEV=1" in listed:
            break
        time.sleep(0.1)
    check("hw:CARD=Loopback,DEV=1" in listed, f"bound again, the Loopback card is listed ({listed})")


def main():
    steps = {"devices": devices, "level": level, "clock": clock, "overrun": overrun, "unplug": unplug}
    chosen = sys.argv[1:] or list(steps)
    with tempfile.TemporaryDirectory() as folder:
        for name in chosen:
            if name == "level":
                steps[name](folder)
            else:
                steps[name]()
    if failures:
        print(f"  {len(failures)} check(s) failed")
        sys.exit(1)


if __name__ == "__main__":
    main()

"""The A/V offset benchmark, in the rig VM: takes with sound from snd-aloop,
10 s and 5 min, with the cable exact and 200 ppm off, measured as
tests/vm/sound_sync.py measures them (each burst's onset against where its
instant falls after the take's first frame), from vivid's camera; beside them,
ffmpeg recording the same two sources in the same run:

    ffmpeg -f v4l2 -ts mono2abs -i /dev/video0 -f alsa -i hw:0,1,0 -copyts

(ffmpeg stamps the sound with the wall clock less the device's delay, the
picture with V4L2's monotonic stamps turned to the wall clock), its file's
bursts measured against the realtime instants they were played at.

Usage: python3 tests/vm/bench_sound.py [--long SECONDS]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rig  # noqa: E402
import sound_sync  # noqa: E402


def ffmpeg_case(name, seconds, shift, report):
    sound_sync.rate_shift(shift)
    try:
        with tempfile.TemporaryDirectory(prefix="slate-bench-ffmpeg-") as work:
            base = int(time.time()) - 60
            out = os.path.join(work, "ffmpeg.mp4")
            log = os.path.join(work, "clicks.log")
            ffmpeg = subprocess.Popen(
                ["ffmpeg", "-v", "error", "-y", "-t", str(seconds), "-f", "alsa", "-sample_rate", "48000", "-channels",
                 "1", "-i", sound_sync.CAPTURE, "-t", str(seconds), "-f", "v4l2", "-ts", "mono2abs", "-framerate", "30",
                 "-video_size", "320x180", "-i", "/dev/video0", "-map", "1:v", "-map", "0:a", "-c:v", "libx264",
                 "-preset", "ultrafast", "-c:a", "aac", "-copyts", "-output_ts_offset", str(-base), out],
                stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(1.5)
            clicks = subprocess.Popen([sound_sync.CLICKS, sound_sync.PLAYBACK, str(sound_sync.RATE), str(seconds + 3),
                                       "500", log])
            _, errors = ffmpeg.communicate(timeout=seconds + 300)
            clicks.wait(timeout=60)
            if ffmpeg.returncode != 0:
                print("%s: ffmpeg failed: %s" % (name, errors.decode()[-500:]), flush=True)
                return
            with open(log) as handle:
                played = [int(line.split()[1]) for line in handle if line.strip()]
            # The file's time 0 is the wall clock's `base`: a burst played at r belongs at r - base.
            measured, expected, _ = sound_sync.offsets(out, base * 1_000_000, played)
    finally:
        sound_sync.rate_shift(100000)
    median = statistics.median(measured) if measured else float("nan")
    worst = max(map(abs, measured)) if measured else float("nan")
    report[name] = {"bursts": len(measured), "of": expected, "median_ms": round(median, 2), "worst_ms": round(worst, 2)}
    print("%s: %s" % (name, json.dumps(report[name])), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--long", type=int, default=300)
    arguments = parser.parse_args()
    sound_sync.build_clicks()
    # The scenario's checks are printed, not enforced: the figures are the benchmark.
    checks = rig.Checks()
    report = {}
    for seconds in (10, arguments.long):
        for shift in (100000, 100020):
            label = "%d s%s" % (seconds, ", 200 ppm" if shift != 100000 else "")
            sound_sync.sync_case("slate " + label, checks, seconds, shift, report, camera="/dev/video0")
            ffmpeg_case("ffmpeg " + label, seconds, shift, report)
    print("A/V offset (goal: |median| <= 5 ms, worst <= 33 ms):")
    met = True
    for name, figures in report.items():
        extra = ", drift %s ppm measured, the player's %s" % (figures["drift_ppm"], figures["cable_ppm"]) \
            if "drift_ppm" in figures else ""
        print("  %-28s median %7.2f ms  worst %7.2f ms  (%d bursts%s)" % (
            name, figures["median_ms"], figures["worst_ms"], figures["bursts"], extra))
        if name.startswith("slate"):
            met = met and abs(figures["median_ms"]) <= 5 and figures["worst_ms"] <= 33.3
    print("goals met" if met else "GOALS MISSED")


if __name__ == "__main__":
    main()

"""Shutter lag of `slate run` in the rig VM: takes started by uinput footswitch
clicks, recorded from vivid's /dev/video0 at 30 fps.

Per take, the lag is the take's `started` t (the capture time vivid stamped on
its first frame) minus the t of the action that started it (the kernel's
timestamp of the click's release, the event take.toggle acts on). Both are
CLOCK_MONOTONIC, to the microsecond. Slate starts a take with the first frame
captured at or after the action, which it never drops however slow the encoder,
so the lag is below one frame interval unless the camera itself dropped that
frame (no free buffer on a saturated machine); then it is the next one.

It runs at vivid's 30 fps pick (640x360), then at 320x180 (`max-size`), where
the emulated encoder has four times fewer pixels to encode, then with the test
pattern camera at 320x180, which stamps frame n at n/30 s from its start: no
driver between the frame and Slate. TAKES (default 20) takes each."""

import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import check, is_take, last, start_run  # noqa: E402

TAKES = int(os.environ.get("TAKES", "20"))
FPS = 30


def bench(camera, max_size):
    folder = tempfile.mkdtemp()
    slate, pedal = start_run(folder, camera=camera, fps=FPS, max_size=max_size)
    log = slate.stderr.decode()
    recording = next((line.split("slate.run: [SlateLinux] ", 1)[-1] for line in log.splitlines()
                      if "] recording %s" % camera in line), "?")
    slow = next((line.split("[SlateLinux] ", 1)[-1] for line in log.splitlines() if "encodes" in line), None)
    lags, dropped = [], []
    for number in range(1, TAKES + 1):
        # A click at a random phase of the frame period.
        time.sleep(random.uniform(0, 1 / FPS))
        pedal.click("KEY_B", hold=0.04)
        slate.wait_for(is_take("started", number), seconds=15)
        time.sleep(0.4)
        pedal.click("KEY_B", hold=0.04)
        slate.wait_for(is_take("stopped", number), seconds=30)
        action = last(slate.lines, lambda line: line.get("result") == "started take %d" % number)
        started = last(slate.lines, is_take("started", number))
        lags.append((started["t"] - action["t"]) * 1000)
        dropped.append(last(slate.lines, is_take("stopped", number))["dropped"])
    pedal.destroy()
    check(slate.stop() == 0, "slate run exits 0")
    check(not any(line.get("event") == "failed" for line in slate.lines if isinstance(line, dict)), "no take failed")
    return recording, slow, lags, dropped


results = [bench(camera, size) for camera, size in
           (("/dev/video0", None), ("/dev/video0", "320x180"), ("testpattern", "320x180"))]
interval = 1000 / FPS
print("shutter lag over %d takes each, take started t - action t (the click's release), TCG virtual machine:" % TAKES)
for recording, slow, lags, dropped in results:
    within = sum(1 for lag in lags if 0 <= lag <= interval)
    print("  %s" % recording)
    if slow:
        print("    (%s)" % slow)
    print("    median %7.3f ms   worst %7.3f ms   best %7.3f ms   within one frame interval: %d of %d" % (
        statistics.median(lags), max(lags), min(lags), within, len(lags)))
    print("    frames dropped by the camera per take: median %d" % statistics.median(dropped))
    check(min(lags) >= 0, "no take starts before its action")
print("frame interval at %d fps: %.3f ms" % (FPS, interval))

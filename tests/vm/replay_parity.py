"""A recording played through uinput in real time gives what `slate replay`
gives for the same recording and profile: the same capture events and actions
in the same order, times within 50 ms."""

import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, SLATE, Slate, check, summary  # noqa: E402

recording = os.path.join(ROOT, "tests/vm/data/pedal-session.evemu")
profile = "profiles/pcsensor-footswitch.yaml"

expected = [
    __import__("json").loads(line)
    for line in subprocess.run([SLATE, "replay", "--json", "--profile", profile, recording],
                               cwd=ROOT, capture_output=True, check=True).stdout.decode().splitlines()
]

monitor = Slate("monitor", "--profile", profile)
device = subprocess.Popen(["evemu-device", recording], stdout=subprocess.PIPE, text=True)
node = device.stdout.readline().split(":")[-1].strip()
check(node.startswith("/dev/input/event"), "evemu-device created %s" % node)
monitor.wait_for_log("is input 'pedals'")
subprocess.run(["evemu-play", node], stdin=open(recording), check=True)
monitor.poll(1.0)
device.send_signal(signal.SIGINT)
device.wait()
check(monitor.stop() == 0, "monitor exits 0 on SIGINT")

live = [line for line in monitor.lines if isinstance(line, dict)]
print("replay: %s" % summary(expected))
print("live:   %s" % summary(live))
check(summary(live) == summary(expected), "same capture events and actions, in the same order")
offsets = [abs((a["t"] - live[0]["t"]) - (b["t"] - expected[0]["t"])) for a, b in zip(live, expected)]
for a, b, offset in zip(live, expected, offsets):
    print("  live %8.3f  replay %8.3f  %6.1f ms  %s %s" % (
        a["t"] - live[0]["t"], b["t"] - expected[0]["t"], offset * 1000, a["type"], a.get("phase") or a.get("action")))
print("largest time difference: %.1f ms" % (max(offsets) * 1000))
check(max(offsets) <= 0.050, "times within 50 ms")

"""A bouncing footswitch through uinput: each press's contacts bounce going
down, coming up, or both (a few ms apart, as cheap pedals do), and `slate
monitor` with profiles/pcsensor-footswitch.yaml (its inputs debounce by the
default 25 ms) gives one click per press: one capture event, one take.toggle,
and a `debounced` line per bounce. A second monitor on the same device with
`debounce: 0` shows the bounces reached Slate as presses of their own. The
kernel's timestamps, read by a third reader, are played through `slate
replay`, which gives what the live monitor gave.

The profile is the shipped one with `grab: never`: its `grab: always` would
keep the events from the other readers. The bounces are written with sleeps
of a few ms; under TCG the machine can stall, so the clicks expected are
worked out from the kernel's timestamps, and a press whose bounce the VM
stretched past the window is said so rather than counted."""

import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness.devices import footswitch  # noqa: E402
from rig import CODES, ROOT, SLATE, Checks, Slate, UInput, read_keys, save_output  # noqa: E402

EVIOCSCLOCKID = 0x400445A0
WINDOW = 0.025
KEY_B = CODES["KEY_B"]

# Each press: (state, seconds until the next) steps, 1 down and 0 up; the last step is the release.
PRESSES = [
    ("bounce going down", [(1, 0.003), (0, 0.003), (1, 0.120), (0, 0)]),
    ("bounce coming up", [(1, 0.120), (0, 0.004), (1, 0.004), (0, 0)]),
    ("the defect's press: both", [(1, 0.003), (0, 0.003), (1, 0.114), (0, 0.004), (1, 0.004), (0, 0)]),
    ("chatter: three bounces down, two up", [
        (1, 0.002), (0, 0.002), (1, 0.002), (0, 0.002), (1, 0.002), (0, 0.002), (1, 0.150),
        (0, 0.002), (1, 0.003), (0, 0.002), (1, 0.003), (0, 0)]),
    ("a clean press", [(1, 0.100), (0, 0)]),
]

check = Checks()
folder = tempfile.mkdtemp(prefix="slate-debounce-")
shipped = open(os.path.join(ROOT, "profiles/pcsensor-footswitch.yaml")).read()
check("    grab: always\n" in shipped, "the shipped footswitch profile grabs its pedals")
profiles = {}
for name, extra in (("debounced", ""), ("raw", "    debounce: 0\n")):
    profiles[name] = os.path.join(folder, name + ".yaml")
    with open(profiles[name], "w") as handle:
        handle.write(shipped.replace("    grab: always\n", "    grab: never\n" + extra))

monitors = {name: Slate("monitor", "--profile", path) for name, path in profiles.items()}
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
reader = os.open(pedal.node, os.O_RDONLY | os.O_NONBLOCK)
fcntl.ioctl(reader, EVIOCSCLOCKID, b"\x01\x00\x00\x00")  # CLOCK_MONOTONIC, as Slate reads
for monitor in monitors.values():
    monitor.wait_for_log("is input 'pedals'")

kernel = []  # (press index, ns, value)
for index, (_, steps) in enumerate(PRESSES):
    for value, pause in steps:
        pedal.key("KEY_B", value)
        if pause:
            time.sleep(pause)
    time.sleep(0.8)
    kernel += [(index, stamp, value) for stamp, code, value in read_keys(reader) if code == KEY_B]
for monitor in monitors.values():
    monitor.poll(1.0)
pedal.destroy()
for name, monitor in monitors.items():
    check(monitor.stop() == 0, "monitor (%s) exits 0" % name)
    save_output(monitor, "debounce-" + name)

# What the kernel's timestamps call for: per press, the gaps the pedal was up
# between a release and a press, and whether each is within the window.
sent = sum(len(steps) for _, steps in PRESSES)
check(len(kernel) == sent, "the reader saw every key event written (%d of %d)" % (len(kernel), sent))
bounces, stretched = [], []
for index, (what, steps) in enumerate(PRESSES):
    events = [(stamp, value) for press, stamp, value in kernel if press == index]
    gaps = [(b[0] - a[0]) / 1e6 for a, b in zip(events, events[1:]) if a[1] == 0 and b[1] == 1]
    print("press %d (%s): %s" % (index + 1, what, "up for %s ms between its contacts" % ", ".join(
        "%.1f" % gap for gap in gaps) if gaps else "never up until its release"))
    bounces.append(sum(1 for gap in gaps if gap < WINDOW * 1000))
    if any(gap >= WINDOW * 1000 for gap in gaps):
        stretched.append(index + 1)
print("bounces the VM stretched past the window, in presses: %s" % (stretched or "none"))
check(len(stretched) <= 1, "at most one press's bounce stretched past 25 ms by the emulated machine")


def lines(monitor, kind, **fields):
    return [line for line in monitor.lines if isinstance(line, dict) and line.get("type") == kind
            and all(line.get(key) == value for key, value in fields.items())]


debounced = monitors["debounced"]
# A press is as many clicks as it has downs, less its bounces.
clicks = sum(len(steps) // 2 - bounces[index] for index, (_, steps) in enumerate(PRESSES))
began = lines(debounced, "capture", phase="began")
check(len(began) == clicks, "debounced: one capture event per press (%d of %d)" % (len(began), clicks))
check(len(lines(debounced, "capture", phase="ended")) == clicks, "debounced: each press ends once")
folded = lines(debounced, "debounced")
check(len(folded) == sum(bounces), "debounced: a debounced line per bounce (%d of %d)" % (len(folded), sum(bounces)))
check(all(line["input"] == "pedals" and line["code"] == "KEY_B" and 0 < line["bounce_ms"] < WINDOW * 1000
          for line in folded), "debounced: each names the pedal and how long it was up (under 25 ms)")
results = [line.get("result") for line in lines(debounced, "action", action="take.toggle")]
toggles = ["%s take %d" % ("started" if n % 2 == 0 else "stopped", n // 2 + 1) for n in range(clicks)]
print("debounced: %s" % results)
check(results == toggles, "debounced: take.toggle once per press, starting and stopping takes in turn")
presses = [line["t"] for line in began]
firsts = [min(stamp for press, stamp, value in kernel if press == i and value == 1) for i in range(len(PRESSES))]
if not stretched:
    check(all(abs((t - presses[0]) - (stamp - firsts[0]) / 1e9) < 0.001 for t, stamp in zip(presses, firsts)),
          "debounced: each capture event began at its press's first contact")

raw = monitors["raw"]
raw_began = len(lines(raw, "capture", phase="began"))
downs = sum(1 for _, _, value in kernel if value == 1)
check(raw_began == downs, "debounce: 0: every press the kernel sent is a capture event (%d of %d)" % (raw_began, downs))
check(lines(raw, "debounced") == [], "debounce: 0: nothing is debounced")
print("debounce: 0: %s" % [line.get("result") for line in lines(raw, "action", action="take.toggle")])

# The kernel's events as a recording, through slate replay with the same profile.
recording = os.path.join(folder, "bouncing.evemu")
origin = kernel[0][1]
with open(recording, "w") as handle:
    handle.write(footswitch() + "E: 0.000000 0000 0000 0\n")
    for _, stamp, value in kernel:
        t = (stamp - origin) / 1e9
        handle.write("E: %.6f 0001 %04x %d\nE: %.6f 0000 0000 0\n" % (t, KEY_B, value, t))
replay = subprocess.run([SLATE, "replay", "--json", "--profile", profiles["debounced"], recording],
                        cwd=ROOT, capture_output=True, text=True)
check(replay.returncode == 0, "slate replay reads the kernel's events")
replayed = [json.loads(line) for line in replay.stdout.splitlines()]


def shape(line):
    return (line["type"], line.get("phase"), line.get("result"), line.get("bounce_ms"))


live = [line for line in debounced.lines if isinstance(line, dict)]
check([shape(line) for line in live] == [shape(line) for line in replayed],
      "slate replay of the kernel's events gives the live monitor's lines, bounce lengths and all")
check(len(live) == len(replayed) and all(
    abs((a["t"] - live[0]["t"]) - (b["t"] - replayed[0]["t"])) < 0.001 for a, b in zip(live, replayed)),
    "at the same times, to the millisecond")
check.finish()

"""Knob-to-driver latency of `slate run` in the rig VM, against v4l2-ctl run
per detent, in one boot.

A uinput Griffin PowerMate turns at 100 detents a second for 10 s (REL_DIAL
+1 every 10 ms, each with its SYN_REPORT) while `slate run --timing --json`
streams vivid's /dev/video0 at 30 fps (320x180, to leave the emulated CPUs
some room). The knob drives a slider on vivid's `integer_32_bits` with
`min: 0, max: 1000000, step: 1` and no acceleration, so each detent is one
unit: no detent is lost when the driver ends at its start value plus the
detents sent, as v4l2-ctl reads it.

Per detent, the latency runs from the kernel's timestamp of its event (the
knob line's `t`) to when VIDIOC_S_EXT_CTRLS returned with its value (the
`applied` line with that value, which --timing prints); both are
CLOCK_MONOTONIC. The reference is what a shell hook would do: for each
detent, a uinput write on a second knob that Slate does not match, then
`v4l2-ctl -d /dev/video0 --set-ctrl integer_32_bits=V`, timed from the write
to the process's exit; REFERENCE detents (default 200: under TCG a process
takes hundreds of ms, so 1000 would take minutes), paced at 100 a second
or as fast as they finish, while Slate still streams. The goal on a host is
no detent lost and a p99 under 2 ms; under TCG the figures are what they
are, and the ratio of the p99s compares the two in the same boot.

Slate's output goes to a file, so that it never waits on a reader. A detent
can be lost before Slate reads it: the kernel queues a limited number of
events for each reader of an evdev node (128 for this knob: 64 detents) and
drops them all when the reader falls that far behind, as an emulated machine
short of CPU can make it (Slate's streaming encoder is busy all the time, and
the host may run other machines). Such a loss shows as
a pause in the event times of Slate's lines that the writes did not have; it
is printed with the CPU time Slate used and how busy the guest was. Whatever
the load, every detent Slate read must reach the driver."""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import (KNOB_IDS, KNOB_NAME, KNOB_PROFILE, SLATE, UInput, check, driver_value, monotonic,  # noqa: E402
                 set_driver_value, wait_until, write_run_profile)

DETENTS = int(os.environ.get("DETENTS", "1000"))
REFERENCE = int(os.environ.get("REFERENCE", "200"))
PERIOD = 0.010
CONTROL = "integer_32_bits"
CONTROLS = """controls:
  acceleration: false
  list:
    - {type: slider, name: Level, target: "v4l2:%s", min: 0, max: 1000000, step: 1}
""" % CONTROL
TICK = os.sysconf("SC_CLK_TCK")


def describe(name, values):
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print("  %-38s median %8.3f ms   p99 %8.3f ms   max %8.3f ms   (%d detents)" % (
        name, statistics.median(ordered), p99, ordered[-1], len(ordered)))
    return p99


def output_lines():
    with open(out_path) as handle:
        return [json.loads(line) for line in handle if line.startswith("{") and line.endswith("}\n")]


def logged(text):
    with open(err_path) as handle:
        return text in handle.read()


def is_level(line, **fields):
    return line.get("type") == "control" and line.get("control") == "Level" and all(
        line.get(key) == value for key, value in fields.items())


def cpu_seconds(pid):
    """The user and system CPU time of a process."""
    with open("/proc/%d/stat" % pid) as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def busy_ticks():
    """The guest's CPU ticks, busy and all."""
    with open("/proc/stat") as handle:
        values = [int(value) for value in handle.readline().split()[1:]]
    return sum(values) - values[3] - values[4], sum(values)


set_driver_value(CONTROL, 0)
folder = tempfile.mkdtemp()
profile = write_run_profile(folder, max_size="320x180", inputs=KNOB_PROFILE, sections=CONTROLS)
out_path, err_path = os.path.join(folder, "slate.out"), os.path.join(folder, "slate.err")
with open(out_path, "w") as out, open(err_path, "w") as err:
    slate = subprocess.Popen([SLATE, "run", "--profile", profile, "--work", os.path.join(folder, "takes"),
                              "--output", os.path.join(folder, "exports"), "--timing", "--json"],
                             stdout=out, stderr=err)
wait_until(lambda: logged("recording /dev/video0"), "slate run to record from /dev/video0", seconds=60)
knob = UInput(KNOB_NAME, keys=["BTN_0"], rels=["REL_DIAL"], **KNOB_IDS)
wait_until(lambda: logged("(%s) is input 'knob'" % KNOB_NAME), "the knob to be bound", seconds=20)
# Slate's CPU time while it streams with the knob still, for comparison with the spin's.
time.sleep(0.5)
idle_began, idle_before = monotonic(), cpu_seconds(slate.pid)
time.sleep(2.0)
idle_rate = (cpu_seconds(slate.pid) - idle_before) / (monotonic() - idle_began)
start = int(driver_value(CONTROL))

# The spin: one detent every 10 ms on a fixed schedule.
cpu_before, (busy_before, all_before) = cpu_seconds(slate.pid), busy_ticks()
began = monotonic()
late = 0
writes = []
for number in range(DETENTS):
    due = began + number * PERIOD
    if due > monotonic():
        time.sleep(due - monotonic())
    elif monotonic() - due > PERIOD:
        late += 1
    writes.append(knob.rel("REL_DIAL", 1))
spun = monotonic() - began
cpu_spin, (busy_after, all_after) = cpu_seconds(slate.pid) - cpu_before, busy_ticks()
# Slate catches up: every line it will print is there once its lines stop coming (at most a minute).
settle = monotonic() + 60
counted, quiet_since = None, monotonic()
while monotonic() < settle and monotonic() - quiet_since < 3:
    lines = output_lines()
    count = (sum(1 for line in lines if is_level(line, source="knob")),
             sum(1 for line in lines if is_level(line, event="applied")))
    if count != counted:
        counted, quiet_since = count, monotonic()
    if count == (DETENTS, DETENTS):
        break
    time.sleep(0.2)
time.sleep(0.5)
final = driver_value(CONTROL)
lines = output_lines()
knob_lines = [line for line in lines if is_level(line, source="knob")]
applied = [line for line in lines if is_level(line, event="applied")]

# Each detent's value was set once: its applied line is the one with that value.
applied_at = {}
for line in applied:
    applied_at.setdefault(line["value"], line["t"])
slate_ms = [(applied_at[line["value"]] - line["t"]) * 1000 for line in knob_lines if line["value"] in applied_at]
# Where the time goes: from the event to the rig's handling of it (the knob line's `dispatched`), then to the driver.
handled_ms = [(line["dispatched"] - line["t"]) * 1000 for line in knob_lines]
camera_ms = [(applied_at[line["value"]] - line["dispatched"]) * 1000 for line in knob_lines
             if line["value"] in applied_at]
unmatched = sum(1 for line in knob_lines if line["value"] not in applied_at)
# Detents lost before Slate read them leave a pause in the event times of its lines that the writes did not have.
write_gap = max(b - a for a, b in zip(writes, writes[1:])) * 1000
line_gap = max((b["t"] - a["t"] for a, b in zip(knob_lines, knob_lines[1:])), default=0) * 1000

# The reference, while Slate still streams: a write on a knob Slate ignores, then v4l2-ctl.
other = UInput("Slate Bench Knob", keys=["BTN_0"], rels=["REL_DIAL"], vendor=0x5AC1, product=0x0002)
reference_start = int(final) if final.lstrip("-").isdigit() else start
reference_ms = []
began = monotonic()
for number in range(REFERENCE):
    due = began + number * PERIOD
    if due > monotonic():
        time.sleep(due - monotonic())
    written = other.rel("REL_DIAL", 1)
    subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-ctrl", "%s=%d" % (CONTROL, reference_start + number + 1)],
                   check=True)
    reference_ms.append((monotonic() - written) * 1000)
reference_final = driver_value(CONTROL)
other.destroy()
knob.destroy()
slate.send_signal(2)
check(slate.wait(timeout=20) == 0, "slate run exits 0")
results = os.environ.get("RIG_VM_RESULTS")
if results:
    for path in (out_path, err_path):
        with open(path) as source, open(os.path.join(results, "bench-knob" + os.path.splitext(path)[1]), "w") as copy:
            copy.write(source.read())

lost = start + DETENTS - int(final) if final.lstrip("-").isdigit() else DETENTS
print("knob turned at %d detents/s for %.1f s (TCG virtual machine; %d writes more than 10 ms late):" % (
    round(1 / PERIOD), spun, late))
print("  detents sent %d, control lines %d, applied lines %d, detents without an applied line %d" % (
    DETENTS, len(knob_lines), len(applied), unmatched))
print("  driver's value: start %d, end %s, expected %d: %s" % (
    start, final, start + DETENTS, "no detent lost" if lost == 0 else "%d DETENTS LOST" % lost))
print("  longest pause between writes %.0f ms, between the events of Slate's lines %.0f ms%s" % (
    write_gap, line_gap, " (Slate stalled: its evdev buffer overflowed)" if lost and line_gap > 300 else ""))
print("  during the spin: Slate used %.2f s of CPU, %.2f s more than streaming alone would (%.2f ms a detent); "
      "the guest's CPUs were %.0f%% busy" % (
          cpu_spin, cpu_spin - idle_rate * spun, (cpu_spin - idle_rate * spun) * 1000 / DETENTS,
          100 * (busy_after - busy_before) / max(1, all_after - all_before)))
print("latency, event to driver:")
slate_p99 = describe("slate (event t to applied t)", slate_ms) if slate_ms else None
if slate_ms:
    describe("  of which event t to dispatched", handled_ms)
    describe("  and dispatched to applied t", camera_ms)
reference_p99 = describe("v4l2-ctl per detent (write to exit)", reference_ms)
print("  (the reference: %d detents, a sample of the %d: one process each takes too long under TCG; it ends at %s, "
      "expected %d)" % (REFERENCE, DETENTS, reference_final, reference_start + REFERENCE))
if slate_p99 is not None:
    print("ratio of p99s slate/v4l2-ctl: %.3f" % (slate_p99 / reference_p99))
print("goal: no detent lost, and a p99 under 2 ms on a host (the VM's figure is what it is)")
check(final == str(start + len(knob_lines)), "every detent Slate read reached the driver: it reads %s, %d + %d" % (
    final, start, len(knob_lines)))
check(unmatched == 0, "an applied line for every control line")

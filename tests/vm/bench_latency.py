"""Press-to-action latency in the rig VM, Slate against triggerhappy in one boot.

For each tool: a uinput key's release (the moment Slate acts, as `ended` is in
Apple's capture events) runs `stamp`, which writes CLOCK_MONOTONIC as it starts;
the latency is that minus the kernel's timestamp of the release, read by a
passive evdev reader. Slate's run also times an internal action (torch.toggle)
from the event timestamp to its dispatch."""

import fcntl
import os
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, Slate, UInput, check, read_keys  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "100"))
EVIOCSCLOCKID = 0x400445A0
STAMP, STAMPS = "/tmp/stamp", "/tmp/stamps"

compiler = next(filter(None, map(shutil.which, ["cc", "gcc", "clang"])), None)
check(compiler is not None, "a C compiler for the stamp program (the Swift toolchain's clang will do)")
source = os.path.join(ROOT, "tests/vm/stamp.c")
if subprocess.run([compiler, "-O2", "-static", "-o", STAMP, source], stderr=subprocess.DEVNULL).returncode:
    subprocess.run([compiler, "-O2", "-o", STAMP, source], check=True)

pedal = UInput("Slate Bench Pedal", keys=["KEY_B"], vendor=0x5AC1, product=0x0001)
reader = os.open(pedal.node, os.O_RDONLY | os.O_NONBLOCK)
fcntl.ioctl(reader, EVIOCSCLOCKID, b"\x01\x00\x00\x00")  # CLOCK_MONOTONIC


def releases():
    """Kernel timestamps (ns) of the KEY_B releases read since the last call."""
    return [stamp for stamp, _, value in read_keys(reader) if value == 0]


def run_rounds(label):
    """Clicks once to warm up (the first exec of a program pays for loading it,
    for either tool), then ROUNDS times; returns the latencies (ms) from each
    counted release to `stamp LABEL`."""
    if os.path.exists(STAMPS):
        os.remove(STAMPS)
    releases()
    kernel = []
    for _ in range(ROUNDS + 1):
        pedal.click("KEY_B", hold=0.03)
        time.sleep(0.2)
        kernel += releases()
    time.sleep(0.5)
    with open(STAMPS) as handle:
        started = [int(line.split()[1]) for line in handle if line.startswith(label + " ")]
    check(len(started) == len(kernel) == ROUNDS + 1, "%s ran the program once per click (%d of %d)" % (
        label, len(started), ROUNDS + 1))
    return [(s - k) / 1e6 for s, k in zip(started[1:], kernel[1:])]


def describe(name, values):
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    slowest = values.index(ordered[-1]) + 1
    print("%-28s median %7.3f ms   p99 %7.3f ms   max %7.3f ms (click %d of %d)" % (
        name, statistics.median(ordered), p99, ordered[-1], slowest, len(values)))
    return statistics.median(ordered), p99


profile = "/tmp/bench-latency.yaml"
with open(profile, "w") as handle:
    handle.write("""inputs:
  pedal:
    match: {name: "Slate Bench Pedal"}
    bind: {KEY_B: primary}
    grab: never
    # triggerhappy acts at the release at once: so does Slate without its
    # debounce window (25 ms by default, which a click's actions wait out).
    debounce: 0
capture:
  primary:
    click: [torch.toggle, {exec: [%s, slate, %s]}]
""" % (STAMP, STAMPS))

slate = Slate("monitor", "--profile", profile, "--timing")
slate.wait_for_log("(Slate Bench Pedal) is input 'pedal'")
slate_ms = run_rounds("slate")
slate.poll(0.5)
check(slate.stop() == 0, "slate exits 0")
internal_ms = [(line["dispatched"] - line["t"]) * 1000 for line in slate.lines
               if isinstance(line, dict) and line.get("action") == "torch.toggle"][1:]

with open("/tmp/triggerhappy.conf", "w") as handle:
    handle.write("KEY_B 0 %s thd %s\n" % (STAMP, STAMPS))
thd = subprocess.Popen(["thd", "--triggers", "/tmp/triggerhappy.conf", pedal.node], stdout=subprocess.DEVNULL)
time.sleep(1.0)
thd_ms = run_rounds("thd")
thd.terminate()
thd.wait()
pedal.destroy()

print("press-to-exec latency over %d clicks after one to warm up (TCG virtual machine):" % ROUNDS)
slate_median, slate_p99 = describe("slate (exec)", slate_ms)
thd_median, thd_p99 = describe("triggerhappy (exec)", thd_ms)
describe("slate internal dispatch", internal_ms)
print("ratio slate/triggerhappy: median %.2f, p99 %.2f (goal: at most 0.5)" % (
    slate_median / thd_median, slate_p99 / thd_p99))

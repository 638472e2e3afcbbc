"""GPIO tally lights in the rig VM, on a real GPIO chip: gpio-sim
(gpio_sim.py; Debian's kernel has neither gpio-sim nor gpio-mockup, so
scripts/gpio-sim-module builds it out of tree on the host) with 32 lines.
`slate run` has a tally of two GPIO outputs, which it requests through
libgpiod v1 and the chip's character device: line 17 active high, named
`gpiochipN`, and line 18 `active-low: true`, named `/dev/gpiochipN` and
pulled up as an active-low LED's line would be.

- At standby both are requested as outputs by slate-tally and dark: line 17
  driven low, line 18 high.
- For three takes, the pedal's release that starts the take (`debounce: 0`,
  as tally.py's) drives line 17 high and line 18 low, as tally.py's lights
  (a median 50 ms or less after the release, each within 100 ms, the first
  take after start within 250 ms): their
  values are read in sysfs every millisecond from just after the release,
  and the latencies printed (when a read first saw the level, and after '>'
  when the last read that did not began: under TCG a millisecond's sleep
  takes a few, and more when the host is busy). The click that stops the take
  drives both dark again (the time printed).
- After `slate run` stops, both lines are released (requested by nobody)
  and read their pulls: line 17 low, line 18 high.

Slate runs with its symbols bound at start (rig.Slate's `bind_now`, as
tally.py's): in the VM's emulated CPU the first press's first calls into each
library otherwise add about 70 ms to take 1.

When scripts/gpio-sim-module could not build the module for a reason outside
the project (Debian's packages could not be downloaded), this prints
"skipped: ..." with the reason and exits 0."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpio_sim  # noqa: E402
from gpio_sim import GPIOLINE_FLAG_ACTIVE_LOW, GPIOLINE_FLAG_IS_OUT, GPIOLINE_FLAG_KERNEL  # noqa: E402
from rig import PEDAL_KEYS, PEDAL_NAME, Checks, Slate, UInput, is_take, monotonic, save_output, write_run_profile  # noqa: E402

LIMIT_MS = 50
# The first take after start may take this long: the emulated machine runs its code paths for the first time.
FIRST_LIMIT_MS = 250
# Any other take: the emulated machine stalls now and then for tens of milliseconds.
SLOWEST_MS = 100
HIGH, LOW = 17, 18  # active high; active low
LIT = {HIGH: 1, LOW: 0}
DARK = {HIGH: 0, LOW: 1}

TALLY = """tally:
  outputs:
    - gpio: %s
      line: %d
    - gpio: %s
      line: %d
      active-low: true
"""


def settle(chip, levels, since, seconds):
    """Reads the lines every millisecond until each is at its level in
    `levels`. Returns {line: (seconds after `since` of the first read that
    saw it there, or None; of the last read before, which did not)}, and the
    mean time between reads."""
    seen = {}
    before = {line: 0.0 for line in levels}
    reads = 0
    end = since + seconds
    while len(seen) < len(levels):
        for line, level in levels.items():
            if line in seen:
                continue
            started = monotonic() - since
            if chip.value(line) == level:
                seen[line] = monotonic() - since
            else:
                before[line] = started
        reads += 1
        if monotonic() > end:
            break
        time.sleep(0.001)
    return {line: (seen.get(line), before[line]) for line in levels}, (monotonic() - since) / max(reads, 1)


def request(chip, line):
    """How the line is requested: (requested, output, active low, consumer)."""
    flags, consumer = chip.line_info(line)
    return (bool(flags & GPIOLINE_FLAG_KERNEL), bool(flags & GPIOLINE_FLAG_IS_OUT),
            bool(flags & GPIOLINE_FLAG_ACTIVE_LOW), consumer)


def levels(chip):
    return {line: chip.value(line) for line in (HIGH, LOW)}


def ms(value):
    return "never" if value is None else "%.1f" % (value * 1000)


def bounds(times):
    """`12.3 (>9.1)`: when a read first saw the level, and the last read before it, in ms."""
    return "%s (>%s)" % (ms(times[0]), ms(times[1]))


try:
    gpio_sim.load()
except gpio_sim.Unavailable as reason:
    print("skipped: %s" % reason)
    sys.exit(0)
except RuntimeError as error:
    print("FAIL: %s" % error)
    sys.exit(1)

check = Checks()
chip = None
pedal = None
slate = None
folder = tempfile.mkdtemp()
try:
    chip = gpio_sim.Chip("slate-tally", 32, label="slate-tally-sim")
    chip.set_pull(LOW, "pull-up")
    check(levels(chip) == DARK and not request(chip, HIGH)[0] and not request(chip, LOW)[0],
          "%s (%s): before slate run, line %d reads low and line %d high (its pull-up), neither requested (%s)"
          % (chip.chip_name, chip.dev_name, HIGH, LOW, levels(chip)))

    path = write_run_profile(folder, sections=TALLY % (chip.chip_name, HIGH, chip.node, LOW), debounce=0)
    slate = Slate("run", "--profile", path, "--work", os.path.join(folder, "takes"),
                  "--output", os.path.join(folder, "exports"), bind_now=True)
    slate.wait_for_log("recording /dev/video0", seconds=60)
    for name, line in ((chip.chip_name, HIGH), (chip.node, LOW)):
        slate.wait_for_log("the tally light GPIO %s line %d is line %d of %s" % (name, line, line, name), seconds=20)
    pedal = UInput(PEDAL_NAME, keys=PEDAL_KEYS)
    slate.wait_for_log("(%s) is input 'pedals'" % PEDAL_NAME, seconds=20)

    check(request(chip, HIGH) == (True, True, False, "slate-tally"),
          "standby: line %d is requested by slate-tally as an output (%s)" % (HIGH, request(chip, HIGH)))
    check(request(chip, LOW) == (True, True, True, "slate-tally"),
          "standby: line %d is requested by slate-tally as an active-low output (%s)" % (LOW, request(chip, LOW)))
    check(levels(chip) == DARK, "standby: dark, line %d driven low and line %d high (%s)" % (HIGH, LOW, levels(chip)))

    # The pedal was bound a moment ago: Slate is still making its uinput clone
    # (grab: always) and hearing udev about it; no one presses that soon.
    time.sleep(1.0)
    lit_after = {HIGH: [], LOW: []}
    dark_after = {HIGH: [], LOW: []}
    intervals = []
    for number in range(1, 4):
        pedal.key("KEY_B", 1)
        time.sleep(0.05)
        released = pedal.key("KEY_B", 0)
        seen, interval = settle(chip, LIT, released, seconds=2)
        intervals.append(interval)
        slate.wait_for(is_take("started", number), seconds=15)
        for line in (HIGH, LOW):
            lit_after[line].append(seen[line])
        check(all(first is not None for first, _ in seen.values()),
              "take %d: lit, line %d high after %s ms and line %d low after %s ms"
              % (number, HIGH, bounds(seen[HIGH]), LOW, bounds(seen[LOW])))
        time.sleep(0.5)
        check(levels(chip) == LIT, "take %d: still lit while it records (%s)" % (number, levels(chip)))

        pedal.key("KEY_B", 1)
        time.sleep(0.05)
        released = pedal.key("KEY_B", 0)
        seen, _ = settle(chip, DARK, released, seconds=10)
        slate.wait_for(is_take("stopped", number), seconds=30)
        for line in (HIGH, LOW):
            dark_after[line].append(seen[line])
        check(all(first is not None for first, _ in seen.values()),
              "take %d stopped: dark, line %d low after %s ms and line %d high after %s ms"
              % (number, HIGH, bounds(seen[HIGH]), LOW, bounds(seen[LOW])))
        time.sleep(0.3)

    print("the lines were read every %s ms on average while each take started (a time below is when a read first"
          " saw the level; '>' the last read that did not)" % ", ".join("%.1f" % (value * 1000) for value in intervals))
    for line, kind in ((HIGH, "active high"), (LOW, "active low")):
        print("line %d (%s): lit %s ms after the pedal's release that started each take (median limit %d, each %d,"
              " the first %d); dark %s ms after the one that stopped it"
              % (line, kind, ", ".join(map(bounds, lit_after[line])), LIMIT_MS, SLOWEST_MS, FIRST_LIMIT_MS,
                 ", ".join(map(bounds, dark_after[line]))))
        times = [first for first, _ in lit_after[line]]
        later = sorted(times[1:]) if None not in times else []
        check(later and times[0] * 1000 <= FIRST_LIMIT_MS and later[len(later) // 2] * 1000 <= LIMIT_MS
              and later[-1] * 1000 <= SLOWEST_MS,
              "line %d (%s) is lit a median %d ms or less after the release that starts a take, each within %d (the"
              " first after start within %d)" % (line, kind, LIMIT_MS, SLOWEST_MS, FIRST_LIMIT_MS))

    check(slate.stop() == 0, "slate run exits 0")
    for line in (HIGH, LOW):
        check(not request(chip, line)[0], "after slate run stops, line %d is released (%s)" % (line, request(chip, line)))
    check(levels(chip) == DARK, "after slate run stops, line %d reads low and line %d high, their pulls (%s)"
          % (HIGH, LOW, levels(chip)))
finally:
    if slate is not None:
        if slate.process.poll() is None:
            slate.stop()
        save_output(slate, "gpio_tally")
    if pedal is not None:
        pedal.destroy()
    if chip is not None:
        chip.remove()
    gpio_sim.unload()
check.finish()
print("gpio tally: all checks passed")

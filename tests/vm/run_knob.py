"""A knob as the Camera Control in `slate run` on the rig's real devices: a
uinput Griffin PowerMate (BTN_0 and REL_DIAL, bound to `control`) beside the
uinput footswitch, vivid's /dev/video0 at 30 fps, and the profile's
`camera.settings: {contrast: 100, gain_automatic: 1}`. The controls are a
slider on brightness, a slider on gain and a picker on vivid's integer menu,
without acceleration. Every value is read back from the driver with
`v4l2-ctl --get-ctrl`, so each check sees what the camera holds, not only what
Slate says.

a. When the camera opens, the settings are applied: a `settings` line for
   contrast 100, and the driver reads 100 (it was set to vivid's default, 128,
   before Slate started).
b. A click shows Brightness's overlay at the driver's 128; turns of +1, +1, -1
   and +3 detents, 150 ms apart, move it by round(255/50) = 5 a detent (133,
   138, 133, 148), and the driver then reads the last line's value.
c. A double click opens the picker; one detent moves the highlight from
   Brightness to the integer menu, past Gain, which is disabled while
   automatic gain is on; a click selects the menu and a detent moves it one
   item, from index 4 (5) to index 5 (8), which the driver reads.
d. Gain stays skipped by the picker while `gain_automatic` is 1; v4l2-ctl
   turning automatic gain off is reported as Gain enabled (source
   `external`, through the driver's control events); Gain is then picked and
   two detents move it by 10, which the driver reads. v4l2-ctl turning
   automatic gain on again disables it (`external`), and a turn on it says
   disabled and why.
e. Contrast set to 50 by v4l2-ctl is set back to 100 when the middle pedal
   starts a take (a `settings` line after the take's action), and only that
   setting: gain_automatic had not drifted. The driver reads 100.
f. Contrast set to 50 again, vivid unbound and bound again (its controls come
   back at their defaults, contrast 128): Slate opens the camera again and
   applies the settings once more, and the driver reads contrast 100.

Without --timing, no `applied` lines are printed."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import (KNOB_PROFILE, Checks, driver_value, is_take, monotonic, plug_knob, save_output,  # noqa: E402
                 set_driver_value, start_run)

VIVID = "/sys/bus/platform/drivers/vivid/"
DETENT = 5  # round((255 - 0) / 50) for vivid's brightness and gain
CONTROLS = """controls:
  acceleration: false
  list:
    - {type: slider, name: Brightness, target: "v4l2:brightness"}
    - {type: slider, name: Gain, target: "v4l2:gain"}
    - {type: picker, name: Integer menu, target: "v4l2:integer_menu"}
"""
SETTINGS = "  settings: {contrast: 100, gain_automatic: 1}\n"

check = Checks()


def is_control(name, **fields):
    """A predicate for `control` lines of `name` with these fields."""
    return lambda line: line.get("type") == "control" and line.get("control") == name and all(
        line.get(key) == value for key, value in fields.items())


def lines_after(mark, predicate, count=1, seconds=20):
    """Waits for `count` lines past the first `mark` that satisfy `predicate`; all of those there are."""
    end = monotonic() + seconds
    while True:
        found = [line for line in slate.lines[mark:] if isinstance(line, dict) and predicate(line)]
        if len(found) >= count:
            return found
        if monotonic() > end:
            raise AssertionError("timed out; output since line %d:\n%s\nstderr:\n%s" % (
                mark, "\n".join(map(str, slate.lines[mark:])), slate.stderr.decode()))
        slate.poll(0.05)


def after(mark, predicate, seconds=20):
    """The first line past the first `mark` that satisfies `predicate`, once it comes."""
    return lines_after(mark, predicate, 1, seconds)[0]


def driver_reads(name, expected, seconds=5):
    """Reads the control with v4l2-ctl until it is `expected` or `seconds` pass
    (the driver is set on the camera's thread, after the line is printed);
    the last reading."""
    end = monotonic() + seconds
    while True:
        value = driver_value(name)
        if value == str(expected) or monotonic() > end:
            return value
        slate.poll(0.1)


def double_click():
    """Two clicks, the second press 80 ms after the first release (capture.double-window is 300 ms).
    First a pause longer than the window: a press within 300 ms of the last click's release would
    pair with that click, even with a turn in between."""
    time.sleep(0.4)
    knob.click("BTN_0", hold=0.03)
    time.sleep(0.08)
    knob.click("BTN_0", hold=0.03)


def turn(detents):
    knob.rel("REL_DIAL", detents)


def pick(detents):
    """Opens the picker, turns `detents` and clicks; the `highlighted` and `selected` lines."""
    mark = len(slate.lines)
    double_click()
    after(mark, lambda line: line.get("event") == "picker-shown")
    turn(detents)
    highlighted = after(mark, lambda line: line.get("event") == "highlighted")
    knob.click("BTN_0")
    selected = after(mark, lambda line: line.get("event") == "selected")
    return highlighted, selected


for name, value in (("contrast", 128), ("brightness", 128), ("integer_menu", 4), ("gain_automatic", 1)):
    set_driver_value(name, value)
folder = tempfile.mkdtemp()
slate, pedal = start_run(folder, inputs=KNOB_PROFILE, sections=CONTROLS, camera_keys=SETTINGS)
knob = None
unplugged = 0
try:
    knob = plug_knob(slate)

    print("a. settings when the camera opens")
    line = after(0, is_control("contrast", source="settings"))
    check(line.get("value") == 100, "a settings line reports contrast 100 (%s)" % line)
    check(after(0, is_control("gain_automatic", source="settings")).get("value") == 1,
          "and gain_automatic 1")
    check(driver_value("contrast") == "100", "v4l2-ctl reads contrast %s, not vivid's 128" % driver_value("contrast"))

    print("b. a click, then slow turns of the brightness slider")
    mark = len(slate.lines)
    knob.click("BTN_0")
    shown = after(mark, is_control("Brightness", event="overlay-shown"))
    check(shown.get("value") == 128 and shown.get("enabled") is True,
          "a click shows Brightness's overlay at the driver's 128 (%s)" % shown)
    steps = [1, 1, -1, 3]
    for detents in steps:
        time.sleep(0.15)
        turn(detents)
    knob_lines = lines_after(mark, is_control("Brightness", source="knob"), count=len(steps))
    values = [line["value"] for line in knob_lines]
    expected = [128 + DETENT * sum(steps[:n + 1]) for n in range(len(steps))]
    print("   brightness lines: %s (expected %s)" % (values, expected))
    gaps = [round((b["t"] - a["t"]) * 1000) for a, b in zip(knob_lines, knob_lines[1:])]
    check(all(gap >= 80 for gap in gaps), "the turns are at least 80 ms apart (%s ms)" % gaps)
    check(values == expected, "each detent moves brightness by %d: %s" % (DETENT, values))
    check(all(line.get("enabled") is True and line.get("text") == str(int(line["value"])) for line in knob_lines),
          "each line is enabled, its text the value")
    read = driver_reads("brightness", int(values[-1]))
    check(read == str(int(values[-1])), "v4l2-ctl reads brightness %s, the last line's value" % read)

    print("c. the picker: to the integer menu, past the disabled gain")
    highlighted, selected = pick(1)
    check(highlighted.get("control") == "Integer menu" and highlighted.get("text") == "5",
          "one detent highlights the integer menu at 5, skipping Gain (%s)" % highlighted)
    check(selected.get("control") == "Integer menu", "a click selects it (%s)" % selected)
    mark = len(slate.lines)
    turn(1)
    line = after(mark, is_control("Integer menu", source="knob"))
    check(line.get("text") == "8" and line.get("enabled") is True, "a detent moves it one item, to 8 (%s)" % line)
    read = driver_reads("integer_menu", "5 (8 0x8)")
    check(read == "5 (8 0x8)", "v4l2-ctl reads integer_menu %s" % read)

    print("d. gain, disabled while automatic gain is on")
    highlighted, selected = pick(-1)
    check(highlighted.get("control") == "Brightness",
          "one detent back from the integer menu highlights Brightness: Gain is skipped (%s)" % highlighted)
    mark = len(slate.lines)
    set_driver_value("gain_automatic", 0)
    line = after(mark, is_control("Gain", enabled=True))
    check(line.get("source") == "external",
          "v4l2-ctl turning automatic gain off: a Gain line, enabled, source external (%s)" % line)
    highlighted, selected = pick(1)
    check(highlighted.get("control") == "Gain" and selected.get("control") == "Gain",
          "one detent from Brightness now highlights Gain, and a click selects it (%s)" % highlighted)
    start = selected["value"]
    direction = 1 if start <= 128 else -1  # away from the end nearest to it
    mark = len(slate.lines)
    turn(2 * direction)
    line = after(mark, is_control("Gain", source="knob"))
    check(line.get("value") == start + direction * 2 * DETENT and line.get("enabled") is True,
          "two detents move gain from %d by %d (%s)" % (start, direction * 2 * DETENT, line))
    read = driver_reads("gain", int(line["value"]))
    check(read == str(int(line["value"])), "v4l2-ctl reads gain %s" % read)
    mark = len(slate.lines)
    set_driver_value("gain_automatic", 1)
    line = after(mark, is_control("Gain", enabled=False))
    check(line.get("source") == "external" and line.get("reason") == "gain is inactive",
          "v4l2-ctl turning automatic gain on: Gain disabled, source external, reason given (%s)" % line)
    mark = len(slate.lines)
    turn(1)
    line = after(mark, is_control("Gain", source="knob"))
    check(line.get("enabled") is False and line.get("reason") == "gain is inactive",
          "a turn on Gain says it is disabled and why (%s)" % line)

    print("e. a take sets the drifted settings again")
    set_driver_value("contrast", 50)
    check(driver_value("contrast") == "50", "v4l2-ctl set contrast 50 (%s)" % driver_value("contrast"))
    mark = len(slate.lines)
    pedal.click("KEY_B")
    action = after(mark, lambda line: line.get("result") == "started take 1")
    line = after(mark, is_control("contrast", source="settings"))
    check(line.get("value") == 100 and slate.lines.index(line) > slate.lines.index(action),
          "after the take's action, a settings line sets contrast back to 100 (%s)" % line)
    slate.poll(0.5)
    others = [line["control"] for line in lines_after(mark, lambda line: line.get("source") == "settings", count=0)]
    check(others == ["contrast"], "only the drifted setting is set again (%s)" % others)
    read = driver_reads("contrast", 100)
    check(read == "100", "v4l2-ctl reads contrast %s" % read)
    after(mark, is_take("started", 1), seconds=15)
    time.sleep(0.5)
    pedal.click("KEY_B")
    after(mark, is_take("stopped", 1), seconds=30)

    print("f. the camera unplugged and plugged in again")
    set_driver_value("contrast", 50)
    check(driver_value("contrast") == "50", "v4l2-ctl set contrast 50 (%s)" % driver_value("contrast"))
    unplugged = len(slate.lines)
    with open(VIVID + "unbind", "w") as handle:
        handle.write("vivid.0")
    slate.wait_for_log("waiting for it", seconds=15)
    line = after(unplugged, is_take("failed"))
    check("camera lost" in line.get("message", "") and "take" not in line,
          "the unbind is reported as the camera lost, with no take in progress (%s)" % line)
    mark = len(slate.lines)
    with open(VIVID + "bind", "w") as handle:
        handle.write("vivid.0")
    slate.wait_for_log("recording from /dev/video0 (vivid) again", seconds=30)
    line = after(mark, is_control("contrast", source="settings"))
    check(line.get("value") == 100, "on the camera opened again, a settings line sets contrast 100 (%s)" % line)
    read = driver_reads("contrast", 100)
    check(read == "100", "v4l2-ctl reads contrast %s on the rebound vivid" % read)
finally:
    if knob:
        knob.destroy()
    pedal.destroy()
    status = slate.stop()
    save_output(slate, "run-knob")
    if not os.path.exists("/dev/video0"):
        with open(VIVID + "bind", "w") as handle:
            handle.write("vivid.0")
check(status == 0, "slate run exits 0 on SIGINT")
check(not any(line.get("event") == "applied" for line in slate.lines if isinstance(line, dict)),
      "without --timing, no applied lines")
failed = [line for line in slate.lines[:unplugged] if isinstance(line, dict) and line.get("event") == "failed"]
check(unplugged and not failed, "nothing failed before the unbind (%s)" % failed)
for name, value in (("contrast", 128), ("brightness", 128), ("integer_menu", 4), ("gain_automatic", 1)):
    set_driver_value(name, value)
if check.failures:
    print("\n".join(map(str, slate.lines)))
    print(slate.stderr.decode())
check.finish()

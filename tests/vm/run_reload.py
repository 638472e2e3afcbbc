"""`slate run` on vivid: fps.toggle while recording closes the camera before
opening it again at the other rate (the take is split, no failure), and SIGHUP
while the pedal is held cancels the hold: its release handler stops the take
it started, before the reloaded profile takes over. The reloaded profile binds
the right pedal to take.delete-last instead of fps.toggle, and from then on it
deletes takes; a profile made invalid and sent with SIGHUP leaves that in effect."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import PEDAL_KEYS, PEDAL_NAME, Checks, Slate, UInput, is_take, last, probe, save_output, write_run_profile  # noqa: E402,E501


check = Checks()
folder = tempfile.mkdtemp()
profile = write_run_profile(folder, right="fps.toggle")
slate = Slate("run", "--profile", profile, "--work", os.path.join(folder, "takes"),
              "--output", os.path.join(folder, "exports"))
try:
    slate.wait_for_log("recording /dev/video0", seconds=60)
    pedal = UInput(PEDAL_NAME, keys=PEDAL_KEYS)
    slate.wait_for_log("(%s) is input 'pedals'" % PEDAL_NAME, seconds=20)

    pedal.click("KEY_B")
    slate.wait_for(is_take("started", 1), seconds=15)
    time.sleep(1.0)
    pedal.click("KEY_C")
    slate.wait_for(lambda line: line.get("result") == "60 fps", seconds=15)
    slate.wait_for(is_take("started", 2), seconds=60)
    check(b"recording /dev/video0 (vivid) at 320x180 60 fps" in slate.stderr,
          "fps.toggle reopens vivid at 320x180 60 fps")
    time.sleep(1.0)
    pedal.click("KEY_B")
    slate.wait_for(is_take("stopped", 2), seconds=30)
    first, second = last(slate.lines, is_take("stopped", 1)), last(slate.lines, is_take("stopped", 2))
    check(not any(isinstance(line, dict) and line.get("event") == "failed" for line in slate.lines),
          "no take failed across the reopen")
    for number, stopped, size in ((1, first, (640, 360)), (2, second, (320, 180))):
        stream = probe(stopped["path"])
        check((stream.get("width"), stream.get("height")) == size,
              "take %d is %dx%d (%s)" % (number, size[0], size[1], stream.get("error") or stream.get("width")))
        check(int(stream.get("nb_read_packets", -1)) == stopped["frames"],
              "take %d holds the %d frames counted" % (number, stopped["frames"]))

    pedal.key("KEY_B", 1)
    slate.wait_for(is_take("started", 3), seconds=15)
    time.sleep(0.5)
    write_run_profile(folder, right="take.delete-last")
    slate.signal(1)
    slate.wait_for(is_take("stopped", 3), seconds=30)
    check(last(slate.lines, lambda line: line.get("type") == "capture" and line.get("phase") == "cancelled")
          is not None, "SIGHUP cancels the held press")
    check(last(slate.lines, lambda line: line.get("result") == "stopped take 3") is not None,
          "the hold's release handler stops the take it started")
    slate.wait_for_log("reloaded " + profile)
    slate.wait_for_log("(%s) is input 'pedals'" % PEDAL_NAME, count=2)
    pedal.key("KEY_B", 0)

    def right_pedal(count):
        """Clicks the right pedal; the action line of its `count`th click."""
        pedal.click("KEY_C")
        slate.wait_for(lambda line: line.get("type") == "action" and line.get("code") == "KEY_C", count=count)
        return last(slate.lines, lambda line: line.get("type") == "action" and line.get("code") == "KEY_C")

    # Slate reads in order: a take started by the release would be reported before the right pedal's action.
    done = right_pedal(2)
    check(last(slate.lines, lambda line: line.get("result") == "started take 4") is None,
          "the release after the reload starts nothing")
    check((done["action"], done["result"]) == ("take.delete-last", "deleted take 3"),
          "after SIGHUP the reloaded profile is in effect: the right pedal deletes the last take (%s)" % done)
    slate.wait_for(is_take("deleted", 3))

    with open(write_run_profile(folder, right="fps.toggle")) as handle:
        invalid = handle.read().replace("  fps: 30\n", "  fps: fast\n")
    with open(profile, "w") as handle:
        handle.write(invalid)
    slate.signal(1)
    slate.wait_for_log("is not valid; keeping the profile loaded before")
    done = right_pedal(3)
    check((done["action"], done["result"]) == ("take.delete-last", "deleted take 2"),
          "after SIGHUP with an invalid profile, the one loaded before stays in effect (%s)" % done)
    slate.wait_for(is_take("deleted", 2))
    check(b"error: fps must be 23.976, 24, 25, 29.97, 30, 48, 50, 59.94 or 60, not 'fast'" in slate.stderr, "the invalid profile's error is reported")
    check(slate.stop() == 0, "slate run exits 0")
    pedal.destroy()
finally:
    save_output(slate, "run-reload")
check.finish()

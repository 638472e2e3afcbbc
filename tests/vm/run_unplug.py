"""`slate run` recording from vivid when the camera is unplugged (the vivid
platform device unbound): the take in progress is closed and playable, a
`failed` take line says the camera was lost, the pedal held down at that moment
gets a cancelled capture event, and Slate waits for the camera. Bound again,
Slate says it records again and a click records a new take that plays."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import Checks, is_take, last, probe, record_take, save_output, start_run  # noqa: E402

VIVID = "/sys/bus/platform/drivers/vivid/"

check = Checks()
folder = tempfile.mkdtemp()
slate, pedal = start_run(folder)
try:
    pedal.click("KEY_B")
    slate.wait_for(is_take("started", 1), seconds=15)
    time.sleep(1.5)
    # The middle pedal goes down and stays down while the camera goes away.
    pedal.key("KEY_B", 1)
    slate.wait_for(lambda line: line.get("phase") == "began", count=2)
    unplugged = time.clock_gettime(time.CLOCK_MONOTONIC)
    with open(VIVID + "unbind", "w") as handle:
        handle.write("vivid.0")
    slate.wait_for(is_take("failed"), seconds=15)
    noticed = time.clock_gettime(time.CLOCK_MONOTONIC) - unplugged
    slate.wait_for(lambda line: line.get("phase") == "cancelled", seconds=5)
    slate.wait_for_log("waiting for it", seconds=5)
    pedal.key("KEY_B", 0)
    slate.poll(1.0)

    failed = last(slate.lines, is_take("failed"))
    check("camera lost" in failed.get("message", ""), "a failed take line says the camera was lost (%s)" % failed)
    print("the loss was reported %.3f s after the unbind" % noticed)
    check(noticed < 2, "Slate notices the lost camera promptly (%.3f s)" % noticed)
    stopped = last(slate.lines, is_take("stopped", 1))
    check(stopped is not None, "take 1 was stopped (%s)" % stopped)
    if stopped:
        stream = probe(stopped["path"])
        check(stream.get("nb_read_frames") == str(stopped["frames"]) and stopped["frames"] > 0,
              "take 1 plays: ffprobe decodes its %d frames (%s)" % (
                  stopped["frames"], stream.get("error") or stream.get("nb_read_frames")))
    phases = [line["phase"] for line in slate.lines if isinstance(line, dict) and line.get("type") == "capture"]
    check(phases == ["began", "ended", "began", "cancelled"],
          "the pedal held down when the camera went away was cancelled, its release ignored (%s)" % phases)
    check(not any(line.get("result", "").startswith("stopped") for line in slate.lines if isinstance(line, dict)),
          "no action stopped the take: the camera's loss did")
    check(not os.path.exists("/dev/video0"), "/dev/video0 is gone")

    with open(VIVID + "bind", "w") as handle:
        handle.write("vivid.0")
    slate.wait_for_log("again", seconds=30)
    check(b"recording from /dev/video0 (vivid) again" in slate.stderr, "Slate records from /dev/video0 again")

    action, started, stopped = record_take(slate, pedal, 2, seconds=1.5)
    stream = probe(stopped["path"])
    check(stream.get("nb_read_frames") == str(stopped["frames"]) and stopped["frames"] > 0,
          "a click records take 2, which plays (%d frames, ffprobe %s)" % (
              stopped["frames"], stream.get("error") or stream.get("nb_read_frames")))
    check(started["t"] >= action["t"], "take 2 starts at or after its action")
finally:
    pedal.destroy()
    status = slate.stop()
    save_output(slate, "run-unplug")
    if not os.path.exists("/dev/video0"):
        with open(VIVID + "bind", "w") as handle:
            handle.write("vivid.0")
check(status == 0, "slate run exits 0 on SIGINT")
if check.failures:
    print("\n".join(map(str, slate.lines)))
    print(slate.stderr.decode())
check.finish()

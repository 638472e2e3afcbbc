"""`slate run` on the rig's real devices: a uinput footswitch and vivid's
/dev/video0 at 30 fps. Three takes clicked on and off with the middle pedal,
the last deleted with the right pedal, the others exported with the left one.

Each take is 640x360 (vivid's pick for 30 fps), plays with as many frames as
Slate counted, and starts with the first frame captured at or after its
button's action. The shutter lag, take started t - action t, compares two
CLOCK_MONOTONIC times from the kernel (the evdev event's timestamp, vivid's
buffer timestamp), printed to the microsecond: it is never negative, and when
the encoder keeps up with the camera it is at most one frame interval (1/30 s)
plus 1 ms. vivid stamps its frames on an exact 1/30 s grid and both times are
rounded to the microsecond, so the margin is far above the rounding (2 us); it
leaves room for the jitter of a camera whose driver stamps frames as they
complete.

Slate copies each frame out of vivid's buffers on a capture thread of its
own and never drops the first frame at or after a take's start, however far
behind the encoder is. Under TCG the emulated machine is busy enough that
vivid itself sometimes finds no free buffer and drops frames (the take's
`dropped`); when the frame right after the action is one of those, the take
starts with the next one (the take's `dropped` also counts frames Slate let go
while the encoder was behind). So the one-frame bound is checked for takes in
which no frame was dropped, and two frame intervals otherwise."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import Checks, is_take, probe, record_take, save_output, start_run  # noqa: E402

FRAME = 1 / 30
MARGIN = 0.001
TAKES = 3

check = Checks()
folder = tempfile.mkdtemp()
work = os.path.join(folder, "takes")
slate, pedal = start_run(folder)
kept_frames = 0
recorded = []
try:
    for number in range(1, TAKES + 1):
        action, started, stopped = record_take(slate, pedal, number)
        lag = started["t"] - action["t"]
        print("take %d: action t %.6f, first frame t %.6f, shutter lag %.3f ms (frame interval %.3f ms), %d dropped" % (
            number, action["t"], started["t"], lag * 1000, FRAME * 1000, stopped["dropped"]))
        check(lag >= 0, "take %d starts at or after its action (%.3f ms)" % (number, lag * 1000))
        if stopped["dropped"] == 0:
            check(lag <= FRAME + MARGIN, "take %d starts within one frame interval of its action" % number)
        else:
            check(lag <= 2 * FRAME + MARGIN,
                  "take %d starts within two frame intervals of its action (%d frames dropped)" % (
                      number, stopped["dropped"]))
        check(started["path"] == stopped["path"] and started["path"].startswith(work),
              "take %d is in the work folder" % number)
        stream = probe(stopped["path"])
        check((stream.get("width"), stream.get("height")) == (640, 360),
              "take %d is 640x360 (%s)" % (number, stream.get("error") or "%sx%s" % (stream.get("width"), stream.get("height"))))
        check(stream.get("r_frame_rate") == "30/1" and stream.get("codec_name") == "h264",
              "take %d is h264 at 30 fps (%s, %s)" % (number, stream.get("codec_name"), stream.get("r_frame_rate")))
        check(stream.get("nb_read_frames") == str(stopped["frames"]) and stopped["frames"] > 0,
              "take %d decodes to its %d frames (ffprobe: %s)" % (number, stopped["frames"], stream.get("nb_read_frames")))
        check(1.5 <= stopped["duration"] <= 3.5, "take %d lasts about 2 s (%.3f s)" % (number, stopped["duration"]))
        recorded.append(stopped)

    pedal.click("KEY_C")
    slate.wait_for(is_take("deleted", TAKES), seconds=15)
    check(not os.path.exists(recorded[-1]["path"]), "the right pedal deleted take %d's file" % TAKES)
    kept_frames = sum(take["frames"] for take in recorded[:-1])

    pedal.click("KEY_A")
    slate.wait_for(lambda line: line.get("type") == "take" and line.get("event") in ("exported", "failed"), seconds=90)
    exported = [line for line in slate.lines if isinstance(line, dict) and line.get("event") == "exported"]
    check(len(exported) == 1 and exported[0]["takes"] == TAKES - 1,
          "the left pedal exported the %d kept takes (%s)" % (TAKES - 1, exported))
    if exported:
        stream = probe(exported[0]["path"])
        check(stream.get("nb_read_frames") == str(kept_frames) == str(exported[0]["frames"]),
              "the export decodes to the kept takes' %d frames (ffprobe: %s, reported %s)" % (
                  kept_frames, stream.get("nb_read_frames"), exported[0]["frames"]))
        check((stream.get("width"), stream.get("height")) == (640, 360), "the export is 640x360")
    # The exported takes stay in the work folder, out of the take list; the deleted one waits in the trash.
    videos = sorted(name for name in os.listdir(work) if name.endswith(".mp4"))
    expected = sorted(os.path.basename(take["path"]) for take in recorded[:-1])
    check(videos == expected, "the exported takes stay in the work folder, out of the take list (%s)" % videos)
    trashed = os.path.join(work, "trash", os.path.basename(recorded[-1]["path"]))
    check(os.path.exists(trashed), "the deleted take waits in the trash (%s)" % trashed)
finally:
    pedal.destroy()
    status = slate.stop()
    save_output(slate, "run-live")
check(status == 0, "slate run exits 0 on SIGINT")
check(not any(line.get("event") == "failed" for line in slate.lines if isinstance(line, dict)), "no take failed")
check(b"recording /dev/video0 (vivid) at 640x360 30 fps" in slate.stderr, "it records vivid at 640x360 30 fps")
if check.failures:
    print("\n".join(map(str, slate.lines)))
    print(slate.stderr.decode())
check.finish()

"""Three rigs on one Mosquitto, each in its own network namespace, one pedal.

Mosquitto (passwords, an ACL) runs in one namespace; cam-a, cam-b and cam-c
each run `slate run` with the test-pattern camera in their own, joined to it
by veth pairs. cam-a replays a pedal session whose clicks send `rigs
take.toggle`. What it shows:
- all three record each of the 10 takes, and each take's first frames, on
  CLOCK_REALTIME, are within one frame interval (33 ms at 30 fps); cam-a
  prints the spread of each; each take's timecode is its first frame's local
  time of day, the three rigs' within a frame; `slate takes timeline` lays
  the three rigs' takes on one OpenTimelineIO timeline, which opentimelineio
  reads with every take at its first frame's time of day, to a frame; as
  FCPXML, each asset-clip where OpenTimelineIO reads its take; as an MLT
  project, which melt renders, each rig's track alone, half a second into
  the first take: each shows its take's frame there, and the three show the
  same test-pattern time, to a frame;
- the broker killed during a take and started again: every rig goes on
  recording, joins again, and publishes its state again (cam-a's take
  stops everywhere);
- a command delivered twice runs once; one timed more than a frame ago is
  refused, with the reason on the rig's events topic; an action the rig does
  not know is refused;
- a client with the wrong password is refused, and the viewer, whom the ACL
  lets only read, cannot start a take;
- cam-c killed: the others see it offline through its last will, within
  1.5 keep-alives;
- `slate rigs` lists the three, cam-c offline.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
import opentimelineio as otio  # noqa: E402
import rig_net  # noqa: E402

FPS = 30
FRAME_MS = 1000 / FPS
# How far a test-pattern frame's timestamp may stray from its slot on a loaded machine.
JITTER_MS = 3
TAKES = 10
# The takes: (start, stop) click times; take 5 is long, for the broker to die during it.
SCHEDULE = [(1.0 + 2.5 * index, 2.5 + 2.5 * index) for index in range(4)]
SCHEDULE.append((11.0, 19.0))
SCHEDULE += [(21.0 + 2.5 * index, 22.5 + 2.5 * index) for index in range(5)]
BROKER_DIES_AT = 12.0
BROKER_BACK_AT = 14.0
END = SCHEDULE[-1][1] + 2.0
USERS = {"cam-a": "pass-a", "cam-b": "pass-b", "cam-c": "pass-c", "viewer": "look-only"}


def main():
    reason = rig_net.why_not_here() or (shutil.which("melt") is None and "melt is missing: scripts/install-deps melt")
    if reason:
        harness.skip("three rigs: skipped: " + reason, required_by="SLATE_REQUIRE_VM")
    check = harness.Checks()
    folder = rig_net.folder()
    network = rig_net.Network(["cam-a", "cam-b", "cam-c"])
    rigs = []
    broker = None
    try:
        broker = rig_net.broker(network, folder, USERS)
        recording = harness.devices.write_session(os.path.join(folder, "pedal.evemu"),
                                                  [time for take in SCHEDULE for time in take], END)
        cam_b = rig_net.Rig(network, folder, "cam-b", USERS["cam-b"])
        cam_c = rig_net.Rig(network, folder, "cam-c", USERS["cam-c"])
        rigs = [cam_b, cam_c]
        for rig in rigs:
            check(rig.wait_log("joined mqtt://%s:%d as rig %s" % (rig_net.BROKER_ADDRESS, rig_net.PORT, rig.name), 20,
                               raises=False),
                  "%s joins the broker from its namespace" % rig.name)
        cam_a = rig_net.Rig(network, folder, "cam-a", USERS["cam-a"], replay=recording)
        rigs.insert(0, cam_a)
        began = time.monotonic()

        # The broker dies during take 5 and comes back.
        cam_a.wait_line(harness.is_take("started", 5), BROKER_DIES_AT + 20, "cam-a's take 5 started")
        time.sleep(max(0, BROKER_DIES_AT - (time.monotonic() - began)))
        broker.kill()
        died = time.monotonic()
        time.sleep(max(0, BROKER_BACK_AT - (time.monotonic() - began)))
        broker.start()
        for rig in rigs:
            check(rig.wait_log("lost mqtt://", 10, raises=False), "%s notices the broker is gone and goes on" % rig.name)
        for rig in rigs:
            joined_again = rig.wait_log("joined mqtt://", 40, count=2, raises=False)
            check(joined_again, "%s joins the broker again after it restarts" % rig.name)
        state = rig_net.client(network, "cam-b", "viewer", USERS["viewer"], "mosquitto_sub", "-t", "slate/+/state", "-v",
                               "-W", "2")
        republished = {line.split(" ", 1)[0] for line in state.stdout.splitlines() if '"online":true' in line}
        check(republished == {"slate/cam-a/state", "slate/cam-b/state", "slate/cam-c/state"},
              "each rig published its state again to the restarted broker (which kept none): %s" % sorted(republished))
        check(all(rig.running() for rig in rigs), "every rig runs on through the broker's death (%.1f s down)"
              % (BROKER_BACK_AT - (died - began)))

        cam_a.wait(END + 60)
        time.sleep(2)

        # Every take on every rig, and their first frames' spread.
        for rig in rigs:
            takes = rig.takes()
            check(len(takes) == TAKES and len(rig.started()) == TAKES,
                  "%s recorded all %d takes (%d in takes.json)" % (rig.name, TAKES, len(takes)))
            playable = all(harness.frames(os.path.join(rig.work, take["file"])) > 0 for take in takes)
            check(playable, "%s's takes decode" % rig.name)
            long_take = takes[4] if len(takes) > 4 else None
            check(long_take is not None and long_take["duration"] > 7,
                  "%s's take 5 went on through the broker's death (%s s)" % (rig.name, long_take and long_take["duration"]))
        # Each rig's first frame is the first its camera captured at or after the
        # start's `at`: less than a frame after it, whatever the cameras' phases,
        # give or take the frames' timestamps' jitter on a loaded machine.
        starts = [line["at_ns"] for line in cam_a.lines
                  if line["type"] == "rig" and line["event"] == "sent" and "take.start" in line["text"]]
        late = [(rig.name, round((line["realtime_ns"] - at) / 1e6, 1)) for rig in rigs
                for line, at in zip(rig.started(), starts)]
        check(len(starts) == TAKES and all(-JITTER_MS <= after < FRAME_MS + JITTER_MS for _, after in late),
              "each rig's first frame of each take is within a frame after its at (ms after): %s" % late)
        spreads = rig_net.spreads(rigs, TAKES)
        check(len(spreads) == TAKES and max(spreads) < FRAME_MS + JITTER_MS,
              "the first frames of each take are within one frame (%.1f ms) of each other: %s ms" % (
                  FRAME_MS, ", ".join("%.1f" % spread for spread in spreads)))
        # Each take's timecode: its first frame's local time of day, so the rigs' agree to a frame.
        def timecode_frames(text):
            hours, minutes, seconds, frames = (int(part) for part in text.replace(";", ":").split(":"))
            return ((hours * 60 + minutes) * 60 + seconds) * FPS + frames

        def of_day(realtime_ns):
            local = time.localtime(realtime_ns // 1_000_000_000)
            seconds = local.tm_hour * 3600 + local.tm_min * 60 + local.tm_sec
            return (seconds * 1_000_000_000 + realtime_ns % 1_000_000_000) * FPS // 1_000_000_000

        codes = [[line.get("timecode") for line in rig.started()] for rig in rigs]
        exact = all(line.get("timecode") and timecode_frames(line["timecode"]) == of_day(line["realtime_ns"])
                    for rig in rigs for line in rig.started())
        apart = [max(timecode_frames(code) for code in take) - min(timecode_frames(code) for code in take)
                 for take in zip(*codes) if all(take)]
        check(exact and len(apart) == TAKES and max(apart) <= 1,
              "each take's timecode is its first frame's time of day, the rigs' within a frame: %s"
              % [" ".join(take) for take in zip(*codes)][:3])
        # The three rigs' takes on one timeline, as OpenTimelineIO reads it: each clip at its first
        # frame's time of day, to a frame, and the tracks' takes as far apart as their first frames.
        shoot, made = make_timeline(rigs, cam_a.folder, "shoot.otio")
        timeline = otio.adapters.read_from_file(shoot)
        first_frames = {(rig.name, take["file"]): of_day(take["realtime_ns"]) for rig in rigs for take in rig.takes()}
        placed = {(track.name, clip.name): (timeline.global_start_time + track.range_of_child(clip).start_time).to_frames()
                  for track in timeline.tracks for clip in track.find_clips()}
        misplaced = {key: (placed.get(key), frame) for key, frame in first_frames.items()
                     if placed.get(key) is None or abs(placed[key] - frame) > 1}
        offsets = [max(placed[(rig.name, take["file"])] for rig, take in zip(rigs, takes))
                   - min(placed[(rig.name, take["file"])] for rig, take in zip(rigs, takes))
                   for takes in zip(*(rig.takes() for rig in rigs))]
        check(made.returncode == 0 and [track.name for track in timeline.tracks] == [rig.name for rig in rigs]
              and len(placed) == 3 * TAKES and not misplaced and max(offsets) <= 1,
              "slate takes timeline: %s; OpenTimelineIO reads %d tracks, each take at its first frame's time of day "
              "(misplaced: %s); the tracks' takes at most %d frame(s) apart (each take: %s)" % (
                  made.text.strip(), len(timeline.tracks), misplaced, max(offsets or [99]), offsets))
        # The same timeline as FCPXML: each rig's takes in its lane, each where OpenTimelineIO reads it.
        starts = {(track.name, clip.name): track.range_of_child(clip).start_time
                  for track in timeline.tracks for clip in track.find_clips()}
        fcpxml, made = make_timeline(rigs, cam_a.folder, "shoot.fcpxml")
        lanes = {str(number + 1): rig.name for number, rig in enumerate(rigs)}
        offsets = {(lanes.get(clip.get("lane")), clip.get("name")): Fraction(clip.get("offset").rstrip("s"))
                   for clip in ET.parse(fcpxml).getroot().iter("asset-clip")}
        read = {key: seconds(timeline.global_start_time + start) for key, start in starts.items()}
        elsewhere = {key: (str(offsets.get(key)), str(time)) for key, time in read.items() if offsets.get(key) != time}
        check(made.returncode == 0 and len(offsets) == 3 * TAKES and not elsewhere,
              "slate takes timeline: %s; xml.etree reads %d asset-clips, each in its rig's lane at the time "
              "OpenTimelineIO reads for its take (elsewhere: %s)" % (made.text.strip(), len(offsets), elsewhere))
        # As an MLT project, rendered by melt a track at a time half a second into the first take: each
        # track shows its take's frame there (as ffmpeg decodes it from the file), the three the same
        # test-pattern time, to a frame.
        project, made = make_timeline(rigs, cam_a.folder, "shoot.kdenlive")
        firsts = [(rig.name, rig.takes()[0]["file"]) for rig in rigs]
        at = max(starts[key].to_frames() for key in firsts) + FPS // 2
        shown, expected = [], []
        for number, (rig, key) in enumerate(zip(rigs, firsts)):
            shown.append(harness.pattern.read_time(render_frame(project, number, at, cam_a.folder)))
            into = (at - starts[key].to_frames() - 0.5) / FPS
            expected.append(harness.pattern.read_time(harness.pattern.luma(os.path.join(rig.work, key[1]), into)))
        apart = max(shown) - min(shown) if None not in shown else None
        check(made.returncode == 0 and None not in expected and shown == expected and apart is not None
              and apart * 1000 < FRAME_MS + JITTER_MS,
              "slate takes timeline: %s; melt renders each rig's track alone at frame %d: the test pattern shows "
              "%s s, as each take's file does there (%s s), %s ms apart" % (
                  made.text.strip(), at, shown, expected, apart is not None and round(apart * 1000, 1)))
        printed = [line for line in cam_a.lines if line["type"] == "rig" and line["event"] == "spread"]
        check(len(printed) == TAKES and all(len(line["first_frames"]) == 3 for line in printed),
              "cam-a printed the spread of each take over three rigs: %s" % [line["spread_ms"] for line in printed])
        answers = [line for line in cam_a.lines if line["type"] == "rig" and line["event"] == "line"]
        check({line["rig"] for line in answers} == {"cam-b", "cam-c"}
              and all(line["line"]["type"] in ("action", "take") for line in answers),
              "cam-a printed the other rigs' answers as rig NAME lines (%d)" % len(answers))

        # A command twice, one too late, one unknown, from cam-a's user.
        command = json.dumps({"action": "zoom.set 2", "id": "twice-1", "from": "test"})
        for _ in range(2):
            rig_net.client(network, "cam-a", "cam-a", USERS["cam-a"], "mosquitto_pub", "-q", "1", "-t", "slate/cam-b/cmd",
                           "-m", command)
        late = json.dumps({"action": "take.start", "at": time.time_ns() - 500_000_000, "id": "late-1", "from": "test"})
        unknown = json.dumps({"action": "punch-in", "id": "unknown-1", "from": "test"})
        events = subprocess.Popen(
            network.inside(network.rigs["cam-b"]) + rig_net.AS_NOBODY
            + ["mosquitto_sub", "-h", rig_net.BROKER_ADDRESS, "-u", "viewer", "-P", USERS["viewer"], "-t",
               "slate/cam-b/events", "-W", "4"], stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        for message in (late, unknown):
            rig_net.client(network, "cam-a", "cam-a", USERS["cam-a"], "mosquitto_pub", "-q", "1", "-t", "slate/cam-b/cmd",
                           "-m", message)
        published = [json.loads(line) for line in events.communicate()[0].splitlines()]
        zooms = [line for line in cam_b.lines if line["type"] == "action" and line["action"] == "zoom.set"
                 and line.get("source") == "rig test"]
        check(len(zooms) == 1, "a command delivered twice (one id) ran once: %d zoom.set lines" % len(zooms))
        refusals = {event["command"]: event["text"] for event in published if event.get("command") in ("late-1", "unknown-1")}
        check("late-1" in refusals and "more than a frame" in refusals["late-1"],
              "a start timed 500 ms ago is refused on cam-b's events topic: %s" % refusals.get("late-1"))
        check("unknown-1" in refusals and "unknown action or macro 'punch-in'" in refusals["unknown-1"],
              "an action cam-b does not know is refused: %s" % refusals.get("unknown-1"))
        check(len(cam_b.started()) == TAKES, "the refused start started nothing")

        # A wrong password, and the viewer publishing a command the ACL denies.
        wrong = rig_net.client(network, "cam-c", "cam-c", "guess", "mosquitto_sub", "-t", "slate/#", "-W", "3")
        check(wrong.returncode != 0 and "not authorised" in (wrong.stdout + wrong.stderr).lower(),
              "a client with the wrong password is refused: %s" % (wrong.stdout + wrong.stderr).strip())
        denied = rig_net.client(network, "cam-c", "viewer", USERS["viewer"], "mosquitto_pub", "-q", "1", "-t",
                                "slate/all/cmd", "-m", json.dumps({"action": "take.start", "id": "viewer-1"}))
        time.sleep(1.5)
        check(all(len(rig.started()) == TAKES for rig in (cam_b, cam_c)),
              "the viewer's take.start on slate/all/cmd starts nothing (publish exit %d)" % denied.returncode)
        rigs_wrong = harness.Slate(["rigs", "--profile", cam_c.profile, "--password-file",
                                    write_secret(cam_c.folder, "guess")],
                                   wrap=network.inside(network.rigs["cam-c"]) + rig_net.AS_NOBODY, stdout="text")
        rigs_wrong.wait(30)
        check(rigs_wrong.returncode == 1 and "not authorised" in rigs_wrong.log().lower(),
              "slate rigs with a wrong password says so: %s" % rigs_wrong.log().strip())

        # cam-c killed: its last will.
        cam_c.kill()
        killed = time.monotonic()
        seen = cam_b.wait_line(
            lambda line: line["type"] == "rig" and line["rig"] == "cam-c" and line["event"] == "offline", 10,
            "cam-b's line: rig cam-c offline")
        after = time.monotonic() - killed
        check(seen is not None and after <= 7.5, "cam-b saw cam-c offline %.1f s after it was killed "
              "(within 1.5 keep-alives of 5 s)" % after)
        listed = harness.Slate(["rigs", "--profile", cam_b.profile],
                               wrap=network.inside(network.rigs["cam-b"]) + rig_net.AS_NOBODY, stdout="text")
        listed.wait(30)
        names = {line.split("  ")[0]: line.split("  ")[1] for line in listed.text.splitlines()}
        check(names == {"cam-a": "offline", "cam-b": "online", "cam-c": "offline"},
              "slate rigs lists cam-a gone (it said goodbye), cam-b online, cam-c offline:\n" + listed.text)
        work = [line for line in listed.text.splitlines() if line.startswith("cam-b ")]
        check(bool(work) and any(":%s  " % path in work[0] for path in (cam_b.work, os.path.realpath(cam_b.work))),
              "slate rigs says where cam-b's takes are: " + (work[0] if work else "no line"))
    finally:
        for rig in rigs:
            rig.stop()
        if broker:
            broker.kill()
        network.remove()
        if check.failures:
            for rig in rigs:
                print("--- %s's log\n%s" % (rig.name, rig.log()))
            print("the rigs' folders: %s" % folder)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    check.finish("three rigs")


def make_timeline(rigs, folder, name):
    """`slate takes timeline` of the rigs' work folders, as nobody, into FOLDER/NAME: its path and the command."""
    path = os.path.join(folder, name)
    made = harness.Slate(["takes", "timeline", "--output", path, "--name", "three rigs"]
                         + [argument for rig in rigs for argument in ("--work", rig.work)],
                         wrap=rig_net.AS_NOBODY, stdout="text")
    made.wait(60)
    return path, made


def seconds(time):
    """An OpenTimelineIO time in seconds, exactly."""
    return Fraction(time.value) / Fraction(time.rate)


def render_frame(project, track, frame, folder):
    """The luma of `frame` of the MLT project at `project` as melt renders it
    with every track but the `track`-th hidden (harness.pattern.luma())."""
    tree = ET.parse(project)
    for number, element in enumerate(tree.getroot().find("tractor").iter("track")):
        if number != track:
            element.set("hide", "video")
    alone = os.path.join(folder, "track-%d.mlt" % track)
    tree.write(alone, encoding="utf-8", xml_declaration=True)
    picture = os.path.join(folder, "track-%d-%%04d.png" % track)
    # real_time=-1: melt's consumer drops no frame when the machine is busy (its default may drop the one asked for).
    subprocess.run(["melt", "-quiet", alone, "in=%d" % frame, "out=%d" % frame, "-consumer", "avformat:" + picture,
                    "vcodec=png", "real_time=-1"], capture_output=True, check=True, timeout=120)
    return harness.pattern.luma(picture % 1)


def write_secret(folder, text):
    path = harness.write(os.path.join(folder, "wrong-password"), text + "\n", mode=0o600)
    os.chown(path, rig_net.NOBODY.pw_uid, rig_net.NOBODY.pw_gid)
    return path


if __name__ == "__main__":
    main()

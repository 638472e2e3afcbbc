"""A rig recording a take while everything outside it turns hostile: a real
Mosquitto on loopback carrying malformed, huge, timed-out, forged and looping
commands (one of them retained before the rig starts), escape sequences in
every field a peer controls, a flood of messages; a SIGHUP to a profile that
is an expansion bomb, then to a prompter script that is a FIFO. A pedal
click in the middle of it starts the take.

What must hold: slate run ends by itself with status 0; the take started
within a frame or two of the click and stopped at the second click;
takes.json lists exactly the take files, none recording; the exec macro no
command may run did not run; RSS stayed under 200 MB; every refusal was
printed, and the text output holds no control byte but the newline.

Then the service manager's and a shell's ways of stopping a rig with the
page and the broker on: SIGTERM mid-take, and SIGINT to a rig started in the
background (which the shell started with SIGINT ignored): each closes the
take, prints its stopped line and exits 0. And a reader of the output that
stops reading: the rig goes on recording on time, dropping report lines.

Usage: python3 tests/hostile/hostile_peers.py   (SLATE names the binary)
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices  # noqa: E402

check = harness.Checks()
INT64_MIN = -9223372036854775808
RSS_LIMIT_MB = 200
# A rig started in the background by a shell: SIGINT ignored, as the shell leaves it.
IN_BACKGROUND = ["bash", "-c", 'trap "" INT && exec "$0" "$@"']

# The rig: the middle pedal records, the test pattern at 640x360.
RIG = harness.profile("A rig under attack.", {"KEY_B": "take.toggle"})
# Its macros (one runs a program: `pwned`), its broker (the one at `url`) and its page.
PEERS = """macros:
  mark: [zoom.set 2]
  relay: [zoom.set 2, rigs zoom.set 1]
  backup: [{{exec: [touch, {pwned}]}}]
mqtt: {{broker: "{url}", rig: cam-a, accept-macros: [mark]}}
http: {{listen: "127.0.0.1:0"}}
"""


def profile(broker, pwned):
    return RIG + PEERS.format(url=broker.url, pwned=pwned)


BOMB = "  l0: [sound shutter]\n" + "".join(
    f"  l{level}: [{', '.join([f'l{level - 1}'] * 10)}]\n" for level in range(1, 10))


def commands(rig_time_ns):
    """Every hostile command, as (what, payload)."""
    at_now = rig_time_ns()
    hostile = [
        ("at = INT64_MIN", {"action": "zoom.step", "at": INT64_MIN, "id": "o1"}),
        ("at = INT64_MAX", {"action": "zoom.step", "at": 2**63 - 1, "id": "o2"}),
        ("at far behind", {"action": "take.stop", "at": at_now - 10**12, "id": "o3"}),
        ("at as a string", {"action": "take.stop", "at": "soon", "id": "o4"}),
        ("at past 64 bits", {"action": "take.stop", "at": 2**70, "id": "o5"}),
        ("no id", {"action": "zoom.step"}),
        ("an id of 10,000 bytes", {"action": "zoom.step", "id": "i" * 10000}),
        ("an id with ESC", {"action": "zoom.step", "id": "\x1b]0;pwned\x07"}),
        ("from with ESC", {"action": "zoom.step", "id": "o6", "from": "\x1b[2J\x1b[H"}),
        ("an action with ESC and BEL", {"action": "\x1b[2J\x1b]0;owned\x07take.stop", "id": "o7"}),
        ("an action forging a line", {"action": "zoom.step\n    9.000  take     stopped take 1", "id": "o8"}),
        ("a macro that sends on", {"action": "relay", "id": "o9"}),
        ("rigs, sent on", {"action": "rigs take.stop", "id": "o10"}),
        ("a macro running a program", {"action": "backup", "id": "o11"}),
        ("exec itself", {"action": "exec [touch, /tmp/x]", "id": "o12"}),
        ("a macro not accepted", {"action": "mark-not", "id": "o13"}),
        ("an action of 100,000 characters", {"action": "z" * 100000, "id": "o14"}),
        ("nested JSON", "[" * 100000 + "]" * 100000),
        ("not JSON", "\x1b[2J not json \x07"),
    ]
    return [(what, payload if isinstance(payload, str) else json.dumps(payload)) for what, payload in hostile]


def start(folder, profile, recording, work, stdout="text", **launch):
    """slate run replaying `recording`, its text output collected (or sent to `stdout`), its state in
    folder/state; `launch`: more of harness.slate_run's arguments."""
    return harness.slate_run(folder, profile, replay=recording, work=work, json_lines=False, stdout=stdout, **launch)


class PeakRSS:
    """A rig's resident memory at its highest, sampled every 0.2 s while it runs."""

    def __init__(self, rig):
        self.kb = 0
        self.thread = threading.Thread(target=self.sample, args=(rig,), daemon=True)
        self.thread.start()

    def sample(self, rig):
        while rig.running():
            self.kb = max(self.kb, rig.resources()[0])
            time.sleep(0.2)


def take_lines(text):
    return [line for line in text.splitlines() if re.match(r"\s*[\d.]+\s+take\s", line)]


def takes_json_matches(work):
    with open(os.path.join(work, "takes.json")) as manifest:
        takes = json.load(manifest)["takes"]
    def videos(folder):
        names = os.listdir(folder) if os.path.isdir(folder) else []
        return sorted(name for name in names if name.startswith("take-") and name.endswith((".mp4", ".mov")))

    # A deleted take is listed as in the trash, its file in the trash folder.
    listed = sorted(take["file"] for take in takes if not take.get("trashed"))
    trashed = sorted(take["file"] for take in takes if take.get("trashed"))
    present = videos(work)
    matches = listed == present and trashed == videos(os.path.join(work, "trash"))
    return matches and not any(take.get("recording") for take in takes), listed, present


def attack(folder, broker):
    """The recording under attack; returns nothing, checks as it goes."""
    pwned = os.path.join(folder, "pwned")
    good = profile(broker, pwned)
    rig_profile = harness.write(os.path.join(folder, "rig.yaml"), good)
    click_start, click_stop, end = 6.0, 16.0, 19.0
    recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [click_start, click_stop], end=end)
    work = os.path.join(folder, "takes")
    # A retained command that trapped every rig at every start.
    broker.publish("slate/all/cmd", json.dumps({"action": "zoom.step", "at": INT64_MIN, "id": "retained"}), retain=True)
    rig = start(folder, rig_profile, recording, work)
    peak = PeakRSS(rig)
    rig.page_port(30)
    began = time.monotonic()

    def rig_time_ns():
        return time.time_ns()

    time.sleep(2.0)
    for what, payload in commands(rig_time_ns):
        broker.publish("slate/all/cmd", payload)
    big = os.path.join(folder, "big.json")
    with open(big, "w") as out:
        out.write(json.dumps({"action": "a" * (4 << 20), "id": "big"}))
    for _ in range(15):
        broker.publish("slate/cam-a/cmd", None, file=big)
    broker.publish("slate/Evil\u202e-rig/state", json.dumps({"online": True}))
    broker.publish("slate/evil/state", json.dumps({"online": True, "version": "\x1b]0;owned\x07"}))
    flood = subprocess.run(
        ["bash", "-c", f"for i in $(seq 1 3000); do echo '{{\"action\":\"mark\",\"id\":\"f'$i'\"}}'; done | "
         f"mosquitto_pub -h 127.0.0.1 -p {broker.port} -t slate/all/cmd -q 0 -l"], timeout=60)
    check(flood.returncode == 0, "3,000 commands sent in a burst")
    # SIGHUP to an expansion bomb: refused, the old profile kept, the take goes on.
    harness.write(rig_profile, good.replace("macros:\n", "macros:\n" + BOMB))
    rig.send(signal.SIGHUP)
    time.sleep(1.0)
    harness.write(rig_profile, good.replace("description: A rig under attack.",
                                            "description: A rig under attack.\nprompter: {script: fifo}"))
    os.mkfifo(os.path.join(folder, "fifo"))
    rig.send(signal.SIGHUP)
    time.sleep(1.0)
    harness.write(rig_profile, good)
    check(time.monotonic() - began < click_stop, "the attack ended before the second click (%.1f s)" % (time.monotonic() - began))
    status = rig.wait(60)
    check(status == 0, "slate run ended by itself with status 0 (got %s)" % status)
    text = rig.text
    lines = take_lines(text)
    started = [line for line in lines if "started take 1" in line]
    stopped = [line for line in lines if "stopped take 1" in line]
    check(len(started) == 1 and len(stopped) == 1, "take 1 started and stopped once: %s" % lines)
    clicks = [float(line.split()[0]) for line in text.splitlines()
              if re.match(r"\s*[\d.]+\s+action\s+take\.toggle\s", line)]
    check(len(clicks) == 2, "both clicks were handled: %s" % clicks)
    if len(clicks) == 2:
        check(abs(clicks[1] - clicks[0] - (click_stop - click_start)) < 0.05,
              "the clicks were handled %.3f s apart, as pressed (%.1f s)" % (clicks[1] - clicks[0], click_stop - click_start))
    if started and clicks:
        at = float(started[0].split()[0])
        check(clicks[0] <= at <= clicks[0] + 0.1, "the take's first frame at %.3f s, its click at %.3f s" % (at, clicks[0]))
    matches, listed, present = takes_json_matches(work)
    check(matches, "takes.json lists exactly the take files, none recording (%s; %s)" % (listed, present))
    check(not os.path.exists(pwned), "the exec macro no command may run did not run")
    peak.thread.join(5)
    check(peak.kb < RSS_LIMIT_MB * 1024, "peak RSS %.0f MB (under %d)" % (peak.kb / 1024, RSS_LIMIT_MB))
    controls = sorted({"%02x" % byte for byte in rig.raw if (byte < 0x20 and byte != 0x0A) or byte == 0x7F})
    check(not controls, "the text output holds no control byte but the newline (found: %s)" % controls)
    check(len(rig.raw) < 1 << 20, "the output stayed small: %d bytes" % len(rig.raw))
    refusals = [line for line in text.splitlines() if " refused " in line]
    for what, reason in (("retained", "nanoseconds since 1970"), ("INT64_MAX", "ahead, more than 10000 ms"),
                         ("far behind", "more than a frame"), ("id", "a command's id is"),
                         ("from", "a command's from is"), ("long action", "at most 200 characters"),
                         ("relay", "sends on"), ("rigs", "a command does not send on"),
                         ("backup", "not one this rig accepts"), ("exec", "exec is not run from a request"),
                         ("not JSON", "not a command")):
        check(any(reason in line for line in refusals), f"{what}: refused saying '{reason}'")
    check(any("\\u{1B}[2J\\u{1B}]0;owned\\u{7}take.stop" in line for line in refusals),
          "escape sequences are shown escaped in refusals")
    errors = rig.log()
    check("over 65536 bytes" in errors, "the 4 MB commands were dropped unread, and the log says so")
    check("expands to 1000000000 steps" in errors, "the bomb's reload was refused with why")
    check("only a regular file is read" in errors, "the FIFO prompter script's reload was refused with why")
    check(any(re.match(r"\s*[\d.]+\s+action\s+zoom\.set\s.*rig cam-a", line) or "mqtt" in line and "zoom.set" in line
              for line in text.splitlines()), "the macro the rig accepts ran")


def stop_mid_take(folder, broker, how):
    """SIGTERM, or SIGINT to a rig started with SIGINT ignored, while a take records."""
    rig_profile = harness.write(os.path.join(folder, f"stop-{how}.yaml"),
                                profile(broker, os.path.join(folder, "pwned")).replace("rig: cam-a", "rig: cam-b"))
    recording = devices.write_session(os.path.join(folder, f"stop-{how}.evemu"), [1.0], end=60.0)
    work = os.path.join(folder, f"takes-{how}")
    rig = start(folder, rig_profile, recording, work, wrap=IN_BACKGROUND if how == "SIGINT" else ())
    rig.page_port(30)
    check(harness.wait_for(lambda: "started take" in rig.text, 20, "the take to start", raises=False),
          f"{how}: the take started")
    time.sleep(1.0)
    rig.send(signal.SIGTERM if how == "SIGTERM" else signal.SIGINT)
    try:
        status = rig.wait(20)
    except subprocess.TimeoutExpired:
        status = "still running 20 s later"
    check(status == 0, f"{how} with the page and the broker on: exit status 0 (got {status})")
    check("stopped take 1" in rig.text, f"{how}: the take's stopped line was printed")
    matches, listed, _ = takes_json_matches(work)
    check(matches and len(listed) == 1, f"{how}: takes.json lists the take, closed ({listed})")


def stalled_reader(folder):
    """A reader of the output that stops reading: takes start and stop on time all the same."""
    clicks = [1.0 + 2 * index for index in range(8)]
    recording = devices.write_session(os.path.join(folder, "stalled.evemu"), clicks, end=clicks[-1] + 2.0)
    work = os.path.join(folder, "takes-stalled")
    read_end, write_end = os.pipe()
    # A full pipe: nothing more can be written until someone reads.
    os.set_blocking(write_end, False)
    try:
        while True:
            os.write(write_end, b"x" * 65536)
    except BlockingIOError:
        pass
    os.set_blocking(write_end, True)
    rig_profile = harness.write(os.path.join(folder, "stalled.yaml"), RIG)
    rig = start(folder, rig_profile, recording, work, options=["--timing"], stdout=write_end)
    os.close(write_end)
    try:
        status = rig.wait(clicks[-1] + 30)
    except subprocess.TimeoutExpired:
        status = "still running"
    os.close(read_end)
    check(status == 0, f"with its output unread, slate run ended by itself with status 0 (got {status})")
    with open(os.path.join(work, "takes.json")) as manifest:
        takes = json.load(manifest)["takes"]
    durations = [round(take["duration"], 1) for take in takes]
    check(len(takes) == 4 and all(abs(duration - 2.0) <= 0.1 for duration in durations),
          f"four takes of 2 s recorded on time with the output unread ({durations})")
    errors = rig.log()
    check("report line(s) dropped: standard output was not read" in errors, "the report lines never read were counted at exit")


def flooded_viewer(broker):
    """300 rigs' retained states on the broker: `slate rigs` lists the first 256, as a rig tracks them."""
    flood = subprocess.run(
        ["bash", "-c", f"for i in $(seq 1 300); do mosquitto_pub -h 127.0.0.1 -p {broker.port} -r -q 1 "
         f"-t slate/flood-$i/state -m '{{\"online\":true}}' || exit 1; done"], timeout=120)
    check(flood.returncode == 0, "300 rigs' states published, retained")
    viewer = harness.Slate(["rigs", "--broker", broker.url, "--seconds", "2", "--json"])
    viewer.wait(60)
    listed = [line["rig"] for line in viewer.lines]
    flooded = [rig for rig in listed if rig.startswith("flood-")]
    check(viewer.returncode == 0 and len(listed) == 256 and len(flooded) >= 250,
          "slate rigs lists 256 of the rigs (got %d, %d of the flood; status %d)" % (len(listed), len(flooded),
                                                                                    viewer.returncode))


def main():
    for tool in ("mosquitto", "mosquitto_pub"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is missing: scripts/install-deps mosquitto mosquitto-clients")
    with tempfile.TemporaryDirectory(prefix="slate-hostile-") as folder:
        broker = harness.Broker(folder)
        try:
            attack(folder, broker)
            stop_mid_take(folder, broker, "SIGTERM")
            stop_mid_take(folder, broker, "SIGINT")
            flooded_viewer(broker)
        finally:
            broker.stop()
        stalled_reader(folder)
    check.finish("hostile peers")


if __name__ == "__main__":
    main()

"""Every golden transcript that live devices can play (Tests/SlateCoreTests/
Fixtures/transcripts), played through uinput into `slate monitor`: its devices
made as uinput devices with the transcript's names, buses, ids and codes, its
events written at their times (a device removed and added is destroyed and
made again), and `slate monitor`'s lines compared with the transcript's
expected ones: the same lines in the same order, and each line's time since
the first within 40 ms of the transcript's, once moved by how late the event
it follows was written (the kernel stamps an event then).

A transcript is played live unless it needs what a live rig has no way to
give: a modelled camera's controls, requests over HTTP or changes from
outside, capture turned off, udev properties, a device plugged in as it
plays (udev takes seconds to report one in the VM), controls set on a camera or
commands to other rigs (which `slate monitor` carries out but does not print),
a SYN_DROPPED (written through uinput it loses nothing), a button still down
or a frame open at the end (the recording's end decides those, and a live
rig has none), or an outcome a millisecond decides. Those it names, with why.
It measures time, so make test runs it alone (beside other work, Python's
writes come up to 100 ms late). A line's numbers (a bounce's milliseconds)
may differ by 10: a few milliseconds between two writes are not kept exactly
in the VM (the debounce scenario checks bounces against the kernel's own
timestamps).

    tests/vm/transcripts_live.py [NAME ...]   # inside the rig VM
"""

import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import EV_KEY, EV_REL, EV_SYN, ROOT, Slate, UInput, monotonic  # noqa: E402

FOLDER = os.path.join(ROOT, "Tests/SlateCoreTests/Fixtures/transcripts")
TOLERANCE = 0.040
# A device removed has no event the kernel stamps: the rig learns of it from a
# read that fails once the node is gone, which takes longer in the VM.
REMOVAL_TOLERANCE = 0.150
# How long the rig is given to say what it says after the last line the
# transcript expects is due (or after the last event, when none is due later).
SETTLE = 0.6

# The event codes, from the kernel's header.
CODES = {}
with open("/usr/include/linux/input-event-codes.h") as header:
    for match in re.finditer(r"#define\s+((?:KEY|BTN|REL|SYN)_\w+)\s+(0x[0-9a-fA-F]+|\d+)", header.read()):
        CODES.setdefault(match.group(1), int(match.group(2), 0))
BUSES = {"usb": 0x03, "bluetooth": 0x05, "hil": 0x04, "virtual": 0x06, "i8042": 0x11, "host": 0x19}


def sections(path):
    """The transcript's sections: name -> list of its content lines (comments and blanks dropped)."""
    result, name = {}, None
    for line in open(path).read().split("\n"):
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            result.setdefault(name, [])
            continue
        if name is None:
            continue
        content = line.strip()
        if name == "profile":
            result[name].append(line)
        elif content and not content.startswith("#"):
            result[name].append(content)
    return result


def device(line):
    alias, _, fields = line.partition(":")
    spec = {"alias": alias.strip(), "name": alias.strip(), "bus": 0x03, "vendor": 0, "product": 0, "phys": None,
            "codes": [], "late": False, "udev": False}
    for field in fields.split(";"):
        key, _, value = field.strip().partition("=")
        if key == "name":
            spec["name"] = value
        elif key == "bus":
            spec["bus"] = BUSES.get(value) or int(value, 0)
        elif key in ("vendor", "product"):
            spec[key] = int(value, 16)
        elif key == "phys":
            spec["phys"] = value
        elif key == "codes":
            spec["codes"] = value.split()
        elif key == "late":
            spec["late"] = True
        elif key == "udev":
            spec["udev"] = True
    return spec


# Transcripts whose outcome a millisecond decides: a live event's time is not
# that exact.
EXACT = {
    "release-before-threshold": "released 1 ms before the hold's time",
    "hold-exactly-at-threshold": "held exactly the hold's time",
    "two-slow-clicks": "the second press comes as the double-click window ends",
}


def ends_pressed(events):
    """Whether the events end with a button down or a frame not closed."""
    down = set()
    for line in events:
        fields = line.split()
        if fields[2:3] == ["removed"]:
            down = {key for key in down if key[0] != fields[1]}
        elif len(fields) >= 4 and fields[2].startswith(("KEY_", "BTN_")) and fields[3] in ("0", "1"):
            (down.add if fields[3] == "1" else down.discard)((fields[1], fields[2]))
    return bool(down) or (events and events[-1].endswith("+"))


def why_not_live(name, parts, devices):
    """Why the transcript cannot be played on live devices, or None."""
    if name in EXACT:
        return "a millisecond decides it: " + EXACT[name]
    if "camera" in parts:
        return "a modelled camera's controls"
    if "options" in parts:
        return "capture turned off from the start"
    if name.startswith("end-of-stream"):
        return "the recording's end"
    for line in parts.get("events", []):
        kind = line.split()[1]
        if kind in ("request", "external"):
            return "a request over HTTP or a change from outside"
        if kind == "active":
            return "capture turned off and on"
    if any(spec["udev"] for spec in devices):
        return "udev properties"
    if any(line.split()[2:3] == ["SYN_DROPPED"] for line in parts.get("events", [])):
        return "SYN_DROPPED written through uinput loses nothing (scenario-syn-dropped makes the kernel drop events)"
    if ends_pressed(parts.get("events", [])):
        return "it ends with a button down or a frame open, which the recording's end decides"
    if any(line.split()[2:3] == ["added"] for line in parts.get("events", [])):
        return "a device plugged in while it plays (udev takes seconds to tell of it in the VM)"
    if any(" camera set " in line for line in parts.get("expect", [])):
        return "camera controls set (the transcript's runner shows the modelled camera's)"
    if any(line.split()[1:2] == ["send"] for line in parts.get("expect", [])):
        return "commands sent to other rigs (the transcript's runner shows them)"
    return None


class Player:
    """The transcript's devices as uinput devices."""

    def __init__(self, devices):
        self.specs = {spec["alias"]: spec for spec in devices}
        self.devices = {}
        for spec in devices:
            if not spec["late"]:
                self.add(spec["alias"])

    def add(self, alias):
        spec = self.specs[alias]
        keys = [CODES[code] for code in spec["codes"] if code.startswith(("KEY_", "BTN_"))]
        rels = [CODES[code] for code in spec["codes"] if code.startswith("REL_")]
        self.devices[alias] = UInput(spec["name"], keys=keys, rels=rels, bus=spec["bus"], vendor=spec["vendor"],
                                     product=spec["product"], phys=spec["phys"])

    def remove(self, alias):
        self.devices.pop(alias).destroy()

    def event(self, fields):
        """One [events] line's fields after its time."""
        alias, what = fields[0], fields[1]
        if what == "removed":
            self.remove(alias)
            return
        if what == "added":
            self.add(alias)
            return
        if alias not in self.devices:
            return  # written to a device that is gone: nothing reaches the rig
        code = CODES[what]
        value = int(fields[2]) if len(fields) > 2 and fields[2] != "+" else 0
        kind = EV_SYN if what.startswith("SYN_") else EV_REL if what.startswith("REL_") else EV_KEY
        target = self.devices[alias]
        target.emit(kind, code, value)
        if kind != EV_SYN and fields[-1] != "+":
            target.emit(EV_SYN, 0, 0)

    def close(self):
        for target in self.devices.values():
            target.destroy()


def same(expected, live):
    """Whether two lines (without their times) say the same: numbers (a
    bounce's milliseconds) may differ by 10."""
    a, b = expected.split(), live.split()
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        try:
            if abs(float(x) - float(y)) <= 10:
                continue
        except ValueError:
            pass
        return False
    return True


def timed(line):
    """A transcript or text-output line as (seconds, the rest)."""
    seconds, _, rest = line.partition(" ")
    return float(seconds), " ".join(rest.split())


def play(name, parts, devices):
    """Plays the transcript; the failures found (none: it passed)."""
    profile = "/tmp/transcript-%s.yaml" % name
    with open(profile, "w") as out:
        out.write("\n".join(parts["profile"]) + "\n")
    # The devices first, udev done with them, then the rig: it binds them as it starts.
    player = Player(devices)
    for target in player.devices.values():
        rdev = os.stat(target.node).st_rdev
        entry = "/run/udev/data/c%d:%d" % (os.major(rdev), os.minor(rdev))
        end = monotonic() + 10
        while not os.path.exists(entry) and monotonic() < end:
            time.sleep(0.02)
    subprocess.run(["udevadm", "settle", "--timeout=10"], check=False)
    monitor = Slate("monitor", "--profile", profile, json_output=False)
    try:
        # Bound (a device no input matches is not logged; the first start,
        # loading slate cold, takes seconds), then a moment for the grab.
        nodes = [target.node.encode() for target in player.devices.values()]
        end = monotonic() + 15
        while monotonic() < end and not all(node + b" (" in monitor.stderr for node in nodes):
            monitor.poll(0.05)
        monitor.poll(0.2)
        start = monotonic()
        # Each event's transcript time and how late it was written: the
        # kernel stamps it then, and the rig's times follow the stamps.
        written = []
        for line in parts["events"]:
            fields = line.split()
            at = start + float(fields[0])
            delay = at - monotonic()
            if delay > 0:
                monitor.poll(delay)
            written.append((float(fields[0]), monotonic() - at, fields[2:3] == ["removed"]))
            player.event(fields[1:])
        # The expected lines' times count from the first event.
        times = [float(line.split()[0]) for line in parts["events"]] or [0.0]
        last_line = times[0] + max((timed(line)[0] for line in parts.get("expect", [])), default=0.0)
        monitor.poll(max(0.0, last_line - times[-1]) + SETTLE)
    finally:
        player.close()
        monitor.poll(0.3)
        monitor.process.send_signal(signal.SIGINT)
        monitor.process.wait(timeout=10)
        monitor.poll(0.2)
    expected = [timed(line) for line in parts["expect"]]
    unbound = [node.decode() for node in nodes if node + b" (" not in monitor.stderr]
    live = [timed(line.strip()) for line in monitor.lines if isinstance(line, str) and re.match(r"^\s*\d+\.\d+ ", line)]
    failures = []
    if len(live) != len(expected) or not all(same(a, b) for (_, a), (_, b) in zip(expected, live)):
        if unbound:
            failures.append("slate monitor never mentioned %s" % ", ".join(unbound))
        failures.append("lines differ\n  expected:\n    %s\n  live:\n    %s\n  stderr:\n%s" % (
            "\n    ".join("%.3f %s" % line for line in expected), "\n    ".join("%.3f %s" % line for line in live),
            monitor.stderr.decode()[-2000:]))
        return failures
    if expected:
        # A line is due when the transcript says, moved by how late the event
        # it follows (the last written at or before its time) was written.
        def anchor(when):
            """How late the event a line follows was written, and whether it removed a device."""
            found = (0.0, False)
            for planned, lateness, removal in written:
                if planned > when + 1e-6:
                    break
                found = (lateness, removal)
            return found

        def due(when):
            return when + anchor(when)[0]

        origin = live[0][0] - due(expected[0][0])
        for (want, rest), (got, _) in zip(expected, live):
            if abs(got - origin - due(want)) > (REMOVAL_TOLERANCE if anchor(want)[1] else TOLERANCE):
                failures.append("%s: %.3f s after the first line, not %.3f (its event written %.0f ms late)" % (
                    rest, got - live[0][0], due(want) - due(expected[0][0]), (due(want) - want) * 1000))
    return failures


def main(names):
    paths = sorted(os.path.join(FOLDER, n) for n in os.listdir(FOLDER) if n.endswith(".transcript"))
    if names:
        paths = [p for p in paths if any(n in os.path.basename(p) for n in names)]
    played, skipped, failed = [], [], []
    for path in paths:
        name = os.path.basename(path)[:-len(".transcript")]
        parts = sections(path)
        devices = [device(line) for line in parts.get("devices", [])]
        reason = why_not_live(name, parts, devices)
        if reason:
            skipped.append((name, reason))
            continue
        started = time.monotonic()
        failures = play(name, parts, devices)
        played.append(name)
        verdict = "ok" if not failures else "FAIL"
        print("%s: %s (%.1f s)" % (verdict, name, time.monotonic() - started))
        for failure in failures:
            print("    " + failure)
        if failures:
            failed.append(name)
    print("played live: %d of %d transcripts; %d failed" % (len(played), len(paths), len(failed)))
    for name, reason in skipped:
        print("  not live: %s (%s)" % (name, reason))
    if failed:
        print("FAIL: " + ", ".join(failed))
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])

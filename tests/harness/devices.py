"""The test devices (tests/devices/README.md): each one NAME.evemu, the device
as evemu describes it, and NAME.yaml, the inputs entry of a profile that
matches it. The tests build their recordings and profiles from these."""

import os

from .core import TESTS

FOLDER = os.path.join(TESTS, "devices")
FOOTSWITCH = "pcsensor-footswitch"
# evemu's codes of the footswitch's left, middle and right pedals.
KEY_A, KEY_B, KEY_C = "001e", "0030", "002e"


def read(name, extension):
    with open(os.path.join(FOLDER, name + "." + extension)) as handle:
        return handle.read()


def evemu(name):
    """The evemu description of the device `name` (its file's lines before
    any event), without the file's comments but its `# EVEMU` line."""
    lines = []
    for line in read(name, "evemu").splitlines(keepends=True):
        if line.startswith("E:"):
            break
        if not line.startswith("#") or line.startswith("# EVEMU"):
            lines.append(line)
    return "".join(lines)


def footswitch():
    """The PCsensor FootSwitch's evemu description."""
    return evemu(FOOTSWITCH)


def session(clicks, end, name=FOOTSWITCH):
    """An evemu recording of the footswitch: each click a (time, key code) or
    a time (the middle pedal, KEY_B), pressed for 0.1 s; the recording ends
    at `end`."""
    lines = [evemu(name), "E: 0.000000 0000 0000 0\n"]
    for click in clicks:
        at, code = click if isinstance(click, tuple) else (click, KEY_B)
        for value, t in ((1, at), (0, at + 0.1)):
            lines.append(f"E: {t:.6f} 0001 {code} {value}\nE: {t:.6f} 0000 0000 0\n")
    lines.append(f"E: {end:.6f} 0000 0000 0\n")
    return "".join(lines)


def write_session(path, clicks, end):
    """session(clicks, end) written to `path`; returns the path."""
    with open(path, "w") as out:
        out.write(session(clicks, end))
    return path


def entry(name=FOOTSWITCH):
    """The device's inputs entry (its YAML fragment without the comments)."""
    return "".join(line for line in read(name, "yaml").splitlines(keepends=True) if not line.startswith("#"))


def inputs(bind, name=FOOTSWITCH, more=""):
    """A profile's `inputs:` section: the device's entry with `bind` (key
    names to actions, each value YAML as it is written) and `more` (more
    keys of the entry, such as "    grab: always\\n")."""
    lines = ["inputs:\n"] + ["  " + line for line in entry(name).splitlines(keepends=True)]
    lines.append("    bind:\n")
    lines += ["      %s: %s\n" % (key, action) for key, action in bind.items()]
    return "".join(lines) + more

"""What the host-side integration tests share: checks that go on after a
failure, the footswitch's evemu description and sessions of its clicks, and
ffprobe's count of a video's frames."""

import subprocess

FOOTSWITCH = """# EVEMU 1.3
N: PCsensor FootSwitch
I: 0003 3553 b001 0111
P: 00 00 00 00 00 00 00 00
B: 00 13 00 00 00 00 00 00 00
B: 01 00 00 00 40 00 40 01 00
B: 02 00 00 00 00 00 00 00 00
B: 04 10 00 00 00 00 00 00 00
"""
KEY_A, KEY_B = "001e", "0030"


class Checks:
    """Checks that go on after a failure; `failures` counts those that failed."""

    def __init__(self):
        self.failures = 0

    def __call__(self, condition, message):
        print(("ok: " if condition else "FAIL: ") + message, flush=True)
        if not condition:
            self.failures += 1
        return condition


def pedal_session(clicks, end):
    """An evemu recording of the footswitch: each click a (time, key code) or a
    time (the middle pedal, KEY_B), pressed for 0.1 s; the recording ends at `end`."""
    lines = [FOOTSWITCH, "E: 0.000000 0000 0000 0\n"]
    for click in clicks:
        at, code = click if isinstance(click, tuple) else (click, KEY_B)
        for value, t in ((1, at), (0, at + 0.1)):
            lines.append(f"E: {t:.6f} 0001 {code} {value}\nE: {t:.6f} 0000 0000 0\n")
    lines.append(f"E: {end:.6f} 0000 0000 0\n")
    return "".join(lines)


def frames(path):
    """How many video frames ffprobe decodes from `path` (0 when it decodes none)."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames",
         "-of", "csv=p=0", path], capture_output=True, text=True)
    try:
        return int(result.stdout.strip().split(",")[0])
    except ValueError:
        return 0

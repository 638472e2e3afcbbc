"""`slate devices` shows a device's identity and which input it matches (or the
rule that failed); `slate record-input` writes a recording that replays like
the device; a grab held by another program is a warning, and Slate goes on
listening without it."""

import fcntl
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import CODES, ROOT, SLATE, Slate, UInput, check, keys_arriving, summary  # noqa: E402

EVIOCGRAB = 0x40044590

pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
devices = subprocess.run([SLATE, "devices", "--json", "--profile", "profiles/pcsensor-footswitch.yaml"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
entries = {entry["path"]: entry for entry in map(json.loads, devices.stdout.splitlines())}
entry = entries.get(pedal.node, {})
print(json.dumps(entry, indent=1)[:600])
check(entry.get("name") == "PCsensor FootSwitch" and entry.get("vendor") == "0x3553"
      and entry.get("product") == "0xb001", "devices shows the pedal's identity")
check(entry.get("input") == "pedals", "devices says which input it is")
check(entry.get("udev", {}).get("ID_INPUT_KEY") == "1", "devices shows the udev properties")
others = [e for path, e in entries.items() if path != pedal.node]
check(others and all(e["input"] is None for e in others), "the other devices are not inputs")
reasons = others[0]["mismatches"]["pedals"]
check(len(reasons) == 5 and all(" is not 0x" in reason for reason in reasons),
      "devices says, per match alternative, the rule that failed: %s" % reasons)
text = subprocess.run([SLATE, "devices", "--profile", "profiles/powermate.yaml"], cwd=ROOT, capture_output=True,
                      text=True, check=True).stdout
check("not input 'knob': vendor 0x3553 is not 0x077d" in text, "the text listing names the failed rule")

recording = "/tmp/pedal.evemu"
recorder = subprocess.Popen([SLATE, "record-input", pedal.node], stdout=open(recording, "w"), cwd=ROOT)
# The header is written once the device is open: only then are its events recorded.
deadline = time.time() + 20
while "N: PCsensor FootSwitch" not in open(recording).read() and time.time() < deadline:
    time.sleep(0.05)
pedal.click("KEY_B", hold=0.1)
time.sleep(0.6)
pedal.click("KEY_A", hold=0.05)
time.sleep(0.3)
recorder.send_signal(signal.SIGINT)
check(recorder.wait(timeout=10) == 0, "record-input exits 0 on SIGINT")
replayed = subprocess.run([SLATE, "replay", "--json", "--profile", "profiles/pcsensor-footswitch.yaml", recording],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
got = summary(map(json.loads, replayed))
print(got)
check(got == [
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "ended"),
    ("action", "take.toggle", "started take 1"),
    ("capture", "KEY_A", "secondary", "began"), ("capture", "KEY_A", "secondary", "ended"),
    ("action", "takes.export", "exporting 1 take"),
], "the recording replays as the device was used")

holder = os.open(pedal.node, os.O_RDONLY | os.O_NONBLOCK)
fcntl.ioctl(holder, EVIOCGRAB, 1)
monitor = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml")
monitor.wait_for_log("is grabbed by another program; listening without the grab")
pedal.click("KEY_A")
check(keys_arriving(holder, 2) == [(CODES["KEY_A"], 1), (CODES["KEY_A"], 0)],
      "while the other program holds the grab, it gets the pedal's presses")
fcntl.ioctl(holder, EVIOCGRAB, 0)
pedal.click("KEY_B")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
# Slate reads in order: had the press during the other grab reached it, it would come first.
check(summary(monitor.lines) == [
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "ended"),
    ("action", "take.toggle", "started take 1"),
], "with the other grab released, Slate hears the pedal, and heard nothing while the other program held it")
check(monitor.stop() == 0, "monitor exits 0")
os.close(holder)
pedal.destroy()

"""Slate is stopped (SIGSTOP) while a button is down; its release and more
events than the evdev buffer holds are sent; continued (SIGCONT), Slate resyncs:
the lost release ends the event as cancelled and no button stays down."""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import EV_KEY, EV_SYN, Slate, UInput, check, summary  # noqa: E402

monitor = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml")
monitor.poll(0.5)
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C", "KEY_X"])
monitor.wait_for_log("is input 'pedals'")
pedal.key("KEY_B", 1)
monitor.wait_for(lambda line: line.get("phase") == "began")
monitor.signal(signal.SIGSTOP)
time.sleep(0.2)
pedal.key("KEY_B", 0)
for _ in range(1000):
    pedal.emit(EV_KEY, "KEY_X", 1)
    pedal.emit(EV_SYN, 0, 0)
    pedal.emit(EV_KEY, "KEY_X", 0)
    pedal.emit(EV_SYN, 0, 0)
monitor.signal(signal.SIGCONT)
monitor.wait_for(lambda line: line.get("phase") == "cancelled")
pedal.click("KEY_B")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
pedal.destroy()
check(monitor.stop() == 0, "monitor exits 0")
got = summary(monitor.lines)
print(got)
# Under load the hold may fire before Slate is stopped (take.start, then
# take.stop when the event is cancelled): the capture events are the point.
captures = [entry for entry in got if entry[0] == "capture"]
check(captures == [
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "cancelled"),
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "ended"),
], "the lost release ends as cancelled")
check(got[-1][:2] == ("action", "take.toggle"), "the pedal works after: its click toggles a take")

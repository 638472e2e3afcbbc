"""A device created after `slate monitor` starts is bound; destroyed while a
button is down, the event is cancelled; created again, it is bound again.
While no device is bound, monitor says which inputs it waits for."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import Slate, UInput, check, summary  # noqa: E402

monitor = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml")
monitor.wait_for_log("waiting for pedals (vendor 0x3553, product 0xb001; or ")
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
monitor.wait_for_log("is input 'pedals'")
pedal.click("KEY_B")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
pedal.key("KEY_B", 1)
monitor.wait_for(lambda line: line.get("phase") == "began", count=2)
pedal.destroy()
monitor.wait_for(lambda line: line.get("phase") == "cancelled")
check(b"went away" in monitor.stderr, "the removal is logged")
monitor.wait_for_log("waiting for pedals (", count=2)

again = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
monitor.wait_for_log("is input 'pedals'", count=2)
again.click("KEY_B")
monitor.wait_for(lambda line: line.get("result") == "stopped take 1")
again.destroy()
check(monitor.stop() == 0, "monitor exits 0")
got = summary(monitor.lines)
print(got)
check(got == [
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "ended"),
    ("action", "take.toggle", "started take 1"),
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "cancelled"),
    ("capture", "KEY_B", "primary", "began"), ("capture", "KEY_B", "primary", "ended"),
    ("action", "take.toggle", "stopped take 1"),
], "bound, cancelled on removal, bound again")

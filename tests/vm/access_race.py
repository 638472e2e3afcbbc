"""A node that Slate cannot read for its first 2 s (as while udev applies the
uaccess ACL) is bound as soon as it becomes readable."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import Slate, UInput, check, monotonic  # noqa: E402

monitor = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml", user="nobody")
monitor.poll(0.5)
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
os.chmod(pedal.node, 0o600)
monitor.wait_for_log("waiting for access to " + pedal.node)
time.sleep(2.0)
readable_at = monotonic()
os.chmod(pedal.node, 0o644)
monitor.wait_for_log("is input 'pedals'", seconds=5)
bound_after = monotonic() - readable_at
print("bound %.2f s after the node became readable" % bound_after)
check(bound_after < 1.5, "bound within the retry backoff once readable")
pedal.click("KEY_B")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
pedal.destroy()
check(monitor.stop() == 0, "monitor exits 0")

"""A node that Slate cannot read for its first tries (as while udev applies the
uaccess ACL) is bound as soon as it becomes readable."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import Slate, UInput, check, monotonic, wait_until  # noqa: E402

# The fault library's trace lists each open of an input node by Slate.
trace = tempfile.NamedTemporaryFile(prefix="access-race-", suffix=".trace", delete=False).name
os.chmod(trace, 0o666)
monitor = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml", user="nobody",
                faults={"SLATE_FAULTS_TRACE": trace, "SLATE_FAULTS_PATH": "/dev/input/event"})
# Listening for hotplug: the pedal is found as it is plugged in, not at start.
monitor.wait_for_log("waiting for pedals")
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
os.chmod(pedal.node, 0o600)
monitor.wait_for_log("waiting for access to " + pedal.node)


def tries():
    with open(trace) as handle:
        return sum(1 for line in handle if line.split("\t")[1].startswith("open") and line.split("\t")[3] == pedal.node)


# Unreadable until Slate has tried it five times: its retries are 800 ms apart by then.
wait_until(lambda: tries() >= 5, "five tries to open %s" % pedal.node)
readable_at = monotonic()
os.chmod(pedal.node, 0o644)
monitor.wait_for_log("is input 'pedals'", seconds=5)
bound_after = monotonic() - readable_at
print("bound %.2f s after the node became readable, after %d tries" % (bound_after, tries()))
check(bound_after < 1.5, "bound within the retry backoff once readable")
pedal.click("KEY_B")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
pedal.destroy()
check(monitor.stop() == 0, "monitor exits 0")
os.unlink(trace)

"""While capture is active a grabbed device's events reach nobody else, and its
unbound keys arrive on Slate's uinput clone; inactive, or after Slate exits,
other readers see the events again. A key held when the grab is due delays the
grab until its release, so the desktop never keeps a key down; the presses of
other keys meanwhile all reach Slate, even when every request to the device is slow.
A `grab: always` pedal (profiles/pcsensor-footswitch.yaml) types nothing while
Slate runs, capture active or not: no other reader of it, or of its clone, sees
its presses.

A reader that sees nothing is read once Slate has reported the press or passed
it on to the clone: the kernel gives an event to every reader of the device at
once, so by then any reader not shut out by the grab has it."""

import glob
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import CODES, Slate, UInput, check, keys_arriving, read_keys, wait_until  # noqa: E402


def reader(path):
    return os.open(path, os.O_RDONLY | os.O_NONBLOCK)


def keys_seen(fd):
    return [(code, value) for _, code, value in read_keys(fd)]


def nodes_named(name):
    found = []
    for folder in glob.glob("/sys/class/input/input*"):
        with open(folder + "/name") as handle:
            if handle.read().strip() == name:
                found += ["/dev/input/" + os.path.basename(event) for event in glob.glob(folder + "/event*")]
    return sorted(found)


keyboard = UInput("Slate Test Keyboard", keys=["KEY_VOLUMEDOWN", "KEY_VOLUMEUP", "KEY_Q"], vendor=0x1234,
                  product=0x5678)
other = reader(keyboard.node)

bound = "%s (Slate Test Keyboard) is input 'volume'" % keyboard.node
monitor = Slate("monitor", "--profile", "profiles/volume-keys.yaml")
monitor.wait_for_log(bound)
wait_until(lambda: len(nodes_named("Slate Test Keyboard")) == 2, "the grabbed keyboard's uinput clone")
clones = [node for node in nodes_named("Slate Test Keyboard") if node != keyboard.node]
check(len(clones) == 1, "a uinput clone exists for the grabbed keyboard's other keys (%s)" % clones)
clone = reader(clones[0])
keys_seen(other)
keyboard.click("KEY_VOLUMEDOWN")
monitor.wait_for(lambda line: line.get("action") == "take.toggle")
keyboard.click("KEY_Q")
check(keys_arriving(clone, 2) == [(CODES["KEY_Q"], 1), (CODES["KEY_Q"], 0)], "the unbound key arrives on the clone")
check(keys_seen(other) == [], "a second reader of the grabbed device sees nothing")
check(monitor.stop() == 0, "monitor exits 0")
keyboard.click("KEY_VOLUMEDOWN")
check(keys_arriving(other, 2) == [(CODES["KEY_VOLUMEDOWN"], 1), (CODES["KEY_VOLUMEDOWN"], 0)],
      "after exit the second reader sees the volume key again")
check(nodes_named("Slate Test Keyboard") == [keyboard.node], "the clone is gone after exit")

keyboard.key("KEY_Q", 1)
check(keys_arriving(other, 1) == [(CODES["KEY_Q"], 1)], "the second reader sees the key held down")
# Every request to the keyboard (EVIOCGRAB, EVIOCGKEY, ...) takes 100 ms: events
# that arrive meanwhile must still be read.
held = Slate("monitor", "--profile", "profiles/volume-keys.yaml",
             faults={"SLATE_FAULTS": "ioctl:*:slow", "SLATE_FAULTS_PATH": keyboard.node})
held.wait_for_log("%s (Slate Test Keyboard) has a key down: grabbing it once every key is released" % keyboard.node)
# Each press 40 ms after the last release: sooner would be a bounce, folded
# into the press before (volume-keys.yaml debounces by the default 25 ms).
for _ in range(50):
    keyboard.click("KEY_VOLUMEDOWN", hold=0.01)
    held.poll(0.04)
ended = held.count_within(lambda line: line.get("phase") == "ended", 50, seconds=10)
check(ended == 50, "while the grab waits, 50 quick clicks each arrive as a capture event: %d did" % ended)
keys_seen(other)
keyboard.key("KEY_Q", 0)
check(keys_arriving(other, 1) == [(CODES["KEY_Q"], 0)], "a key held at the grab: its release reaches the other reader")
held.wait_for_log("%s (Slate Test Keyboard) has every key released: grabbed it" % keyboard.node)
keyboard.click("KEY_VOLUMEDOWN")
held.wait_for(lambda line: line.get("action") == "take.toggle", count=51)
check(keys_seen(other) == [], "once every key is up the keyboard is grabbed")
check(held.stop() == 0, "that monitor exits 0")

inactive = Slate("monitor", "--profile", "profiles/volume-keys.yaml", "--inactive")
inactive.wait_for_log(bound)
keyboard.click("KEY_VOLUMEDOWN")
check(keys_arriving(other, 2) == [(CODES["KEY_VOLUMEDOWN"], 1), (CODES["KEY_VOLUMEDOWN"], 0)],
      "with --inactive nothing is grabbed")
inactive.wait_for(lambda line: line.get("type") == "ignored")
keyboard.click("KEY_VOLUMEUP")
inactive.wait_for(lambda line: line.get("type") == "ignored", count=2)
reported = [line for line in inactive.lines if isinstance(line, dict)]
check([(line["type"], line["code"], line["reason"]) for line in reported] == [
    ("ignored", "KEY_VOLUMEDOWN", "capture inactive"), ("ignored", "KEY_VOLUMEUP", "capture inactive")],
      "inactive capture gives no events, only the presses reported as ignored")
check(inactive.stop() == 0, "inactive monitor exits 0")
keyboard.destroy()

# grab: always. One pedal has only its three keys; the other reports a whole
# keyboard's keys, as some units do, so Slate passes its other keys on through a clone.
pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
keyboard_pedal = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C", "KEY_Q", "KEY_X"], vendor=0x1a86,
                        product=0xe026)
readers = {"the pedal": reader(pedal.node), "the keyboard-like pedal": reader(keyboard_pedal.node)}
for options in ((), ("--inactive",)):
    always = Slate("monitor", "--profile", "profiles/pcsensor-footswitch.yaml", *options)
    for node in (pedal.node, keyboard_pedal.node):
        always.wait_for_log("%s (PCsensor FootSwitch) is input 'pedals'" % node)
    wait_until(lambda: len(nodes_named("PCsensor FootSwitch")) == 3, "the keyboard-like pedal's clone")
    pedal_clones = [node for node in nodes_named("PCsensor FootSwitch") if node not in (pedal.node, keyboard_pedal.node)]
    readers["its clone"] = reader(pedal_clones[0])
    for fd in readers.values():
        keys_seen(fd)
    for count, (device, key) in enumerate(((pedal, "KEY_B"), (keyboard_pedal, "KEY_C")), 1):
        device.click(key)
        # Each press is reported: an action while capture is active, else an ignored line.
        always.wait_for(lambda line: line.get("type") in ("action", "ignored"), count=count)
    for name, fd in readers.items():
        check(keys_seen(fd) == [], "grab: always%s: a reader of %s sees none of its presses" % (
            " with capture inactive" if options else "", name))
    check(always.stop() == 0, "monitor exits 0")
    os.close(readers.pop("its clone"))
pedal.click("KEY_B")
keyboard_pedal.click("KEY_C")
check(keys_arriving(readers["the pedal"], 2) == [(CODES["KEY_B"], 1), (CODES["KEY_B"], 0)]
      and keys_arriving(readers["the keyboard-like pedal"], 2) == [(CODES["KEY_C"], 1), (CODES["KEY_C"], 0)],
      "after Slate exits, the pedals' readers see their presses again")
pedal.destroy()
keyboard_pedal.destroy()

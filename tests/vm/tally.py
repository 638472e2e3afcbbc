"""Tally lights in the rig VM, on real kernel devices: `slate run` with a
tally section lights the pedal's own LED (a uinput footswitch that has
LED_SCROLLL: the kernel hands the LED events Slate writes to its event node
back on the uinput descriptor, stamped with CLOCK_MONOTONIC) and three USB
busylights, HID gadgets on dummy_hcd (busylight.py) with each maker's ids and
report layout (blink(1): feature report 1; Luxafor Flag: an 8-byte output
report; Kuando Omega: a 64-byte output report with a checksum), which Slate
finds through udev and writes through hidraw and the USB stack.

For six takes, each light must turn red a median 50 ms or less after the
pedal's release that started the take, each within 100 ms (the emulated
machine stalls now and then for tens of milliseconds), and the first take
after start within 250 ms (the emulated machine runs its code paths for the
first time: 36–110 ms with symbols bound at start) (the pedal acts at the release at once: `debounce: 0`,
as bench_latency.py's; Slate's default 25 ms would add itself to every
action); the time from the take's first frame (its `started` line's t; the
release's kernel stamp, the action line's t, places Slate's times on
CLOCK_MONOTONIC) is printed too. After the stop every light is back to
standby (LED dark, busylights green). The busylights are written again every
5 s; after `slate run` stops every light is dark.

Slate runs with its symbols bound at start (rig.Slate's `bind_now`): in the
VM's emulated CPU the first press's first calls into each library otherwise
add about 70 ms to take 1 (measured: 91–98 ms from the release without,
19–46 ms with). GPIO lines are timed by gpio_tally.py."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import (CODES, PEDAL_KEYS, PEDAL_NAME, Checks, Slate, UInput, is_take, last, wait_until,  # noqa: E402
                 write_run_profile)
from busylight import UsbBusylight, vendor_descriptor  # noqa: E402

LIMIT_MS = 50
TAKES = 6
# The first take after start may take this long: the emulated machine runs its code paths for the first time.
FIRST_LIMIT_MS = 250
# Any other take: the emulated machine stalls now and then for tens of milliseconds.
SLOWEST_MS = 100
RED, GREEN, DARK = (255, 0, 0), (0, 255, 0), (0, 0, 0)


def blink1(color):
    return bytes([1, ord("n"), *color, 0, 0, 0, 0])


def luxafor(color):
    """What the flag receives: usbhid leaves out report number 0."""
    return bytes([1, 0xFF, *color, 0, 0, 0])


def kuando(color):
    """Kuando's 64-byte command: step 0 jumps to itself with the colour in
    0–100 per channel; the footer's pad bytes and a big-endian sum of bytes 0–61."""
    command = bytearray(64)
    command[0] = 0x10
    command[2:5] = bytes(channel * 100 // 255 for channel in color)
    command[59:62] = b"\xff\xff\xff"
    total = sum(command[:62])
    command[62:64] = bytes([total >> 8, total & 0xFF])
    return bytes(command)


TALLY = """tally:
  outputs:
    - led: LED_SCROLLL
      input: pedals
    - busylight: blink1
    - busylight: luxafor
    - busylight: kuando
"""

check = Checks()
lights = {}
pedal = None
slate = None
folder = tempfile.mkdtemp()
try:
    lights["blink1"] = (UsbBusylight(0x27B8, 0x01ED, "ThingM", "blink(1) mk3", vendor_descriptor(8, 0xB1, report_id=1),
                                     9, feature=True), blink1)
    lights["luxafor"] = (UsbBusylight(0x04D8, 0xF372, "Microchip", "LUXAFOR FLAG", vendor_descriptor(8, 0x91), 8), luxafor)
    lights["kuando"] = (UsbBusylight(0x27BB, 0x3BCD, "PLENOM APS", "BUSYLIGHT", vendor_descriptor(64, 0x91), 64), kuando)
    path = write_run_profile(folder, sections=TALLY, debounce=0)
    slate = Slate("run", "--profile", path, "--work", os.path.join(folder, "takes"),
                  "--output", os.path.join(folder, "exports"), "--timing", bind_now=True)
    slate.wait_for_log("recording /dev/video0", seconds=60)
    pedal = UInput(PEDAL_NAME, keys=PEDAL_KEYS, leds=["LED_SCROLLL"])
    slate.wait_for_log("(%s) is input 'pedals'" % PEDAL_NAME, seconds=20)
    for name, (device, report) in lights.items():
        slate.wait_for_log("is a %s at %s" % (name, device.hidraw), seconds=10)
        wait_until(lambda: device.taken(), "%s's first report" % name, seconds=10)
        arrived = [data for _, data in device.taken()]
        check(report(GREEN) in arrived, "%s: standby shows green (%s)" % (name, arrived[-1:]))

    latencies = {name: [] for name in ["LED"] + list(lights)}
    first_frames = []
    for number in range(1, TAKES + 1):
        pedal.leds()
        seen = {name: len(device.taken()) for name, (device, _) in lights.items()}
        pedal.key("KEY_B", 1)
        time.sleep(0.05)
        released = pedal.key("KEY_B", 0)
        slate.wait_for(is_take("started", number), seconds=15)
        action = last(slate.lines, lambda line: line.get("result") == "started take %d" % number)
        started = last(slate.lines, is_take("started", number))
        # The action's t is the kernel's stamp of the release: the first frame's time after it.
        first_frames.append(started["t"] - action["t"])
        time.sleep(1.0)
        leds = pedal.leds()
        lit = [stamp for stamp, code, value in leds if code == CODES["LED_SCROLLL"] and value == 1]
        check(len(lit) == 1, "take %d: the pedal's LED is lit once (%s)" % (number, leds))
        if lit:
            latencies["LED"].append(lit[0] - released)
        for name, (device, report) in lights.items():
            red = [stamp for stamp, data in device.taken()[seen[name]:] if data == report(RED)]
            check(red, "take %d: %s shows red (%s)" % (number, name, device.taken()[seen[name]:][:2]))
            if red:
                latencies[name].append(red[0] - released)
        pedal.click("KEY_B")
        slate.wait_for(is_take("stopped", number), seconds=30)
        time.sleep(0.3)
        dark = [value for _, code, value in pedal.leds() if code == CODES["LED_SCROLLL"]]
        check(dark == [0], "take %d stopped: the LED is dark again (%s)" % (number, dark))
        for name, (device, report) in lights.items():
            check(device.taken()[-1][1] == report(GREEN), "take %d stopped: %s is green again" % (number, name))

    def listed(values):
        return ", ".join("%.1f" % (value * 1000) for value in values)

    for name, values in latencies.items():
        print("%s: red %s ms after the pedal's release (median limit %d, each %d, the first %d); %s ms after the take's"
              " first frame" % (name, listed(values), LIMIT_MS, SLOWEST_MS, FIRST_LIMIT_MS,
                 listed(value - frame for value, frame in zip(values, first_frames))))
        later = sorted(values[1:])
        check(len(values) == TAKES and values[0] * 1000 <= FIRST_LIMIT_MS and later[len(later) // 2] * 1000 <= LIMIT_MS
              and later[-1] * 1000 <= SLOWEST_MS and min(values) >= 0,
              "%s turns red a median %d ms or less after the press that starts a take, each within %d (the first after"
              " start within %d)" % (name, LIMIT_MS, SLOWEST_MS, FIRST_LIMIT_MS))
    kuando_device = lights["kuando"][0]
    before = len(kuando_device.taken())
    time.sleep(5.5)
    again = kuando_device.taken()[before:]
    check(any(data == kuando(GREEN) for _, data in again),
          "the Kuando is written again within 5.5 s, so it never goes dark (%d reports)" % len(again))
    check(slate.stop() == 0, "slate run exits 0")
    check([value for _, code, value in pedal.leds() if code == CODES["LED_SCROLLL"]] in ([], [0]),
          "the LED is dark after slate run stops")
    for name, (device, report) in lights.items():
        check(device.taken()[-1][1] == report(DARK), "%s is dark after slate run stops" % name)
finally:
    if slate is not None and slate.process.poll() is None:
        slate.stop()
    if pedal is not None:
        pedal.destroy()
    for device, _ in lights.values():
        device.disconnect()
check.finish()
print("tally: all checks passed")

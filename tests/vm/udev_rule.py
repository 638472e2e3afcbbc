"""udev/70-slate.rules on USB hardware: every vendor:product line of the rules
tags a USB device with those ids (uaccess and SLATE_DEVICE=1), the lines of
the input device's ids alone and those of the USB parent's ids alone each do,
and a USB device with other ids, or one named like a Bluetooth headset's
AVRCP buttons, is left alone. The devices are HID gadgets on dummy_hcd, which
the kernel enumerates and binds as it would the real ones (see usb_gadget.py)."""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, Checks  # noqa: E402
from usb_gadget import plug, unplug  # noqa: E402

RULES = os.path.join(ROOT, "udev", "70-slate.rules")
INSTALLED = "/etc/udev/rules.d/70-slate.rules"

# The devices the rules name, as their makers name them.
SHIPPED = [
    (0x3553, 0xB001, "PCsensor", "FootSwitch"),
    (0x1A86, 0xE026, "QinHeng", "FootSwitch"),
    (0x0C45, 0x7403, "Microdia", "FootSwitch"),
    (0x0C45, 0x7404, "Microdia", "FootSwitch"),
    (0x413D, 0x2107, "PCsensor", "FootSwitch"),
    (0x05F3, 0x00FF, "VEC", "USB Footpedal"),
    (0x077D, 0x0410, "Griffin Technology, Inc.", "Griffin PowerMate"),
]
# A USB device the rules must not tag (pid.codes' test ids).
OTHER = (0x1209, 0x0001, "Slate", "Test Keys")

INPUT_IDS = re.compile(r'^ATTRS\{id/vendor\}=="(\w{4})", ATTRS\{id/product\}=="(\w{4})", GOTO="slate_device"$')
USB_IDS = re.compile(r'^ATTRS\{idVendor\}=="(\w{4})", ATTRS\{idProduct\}=="(\w{4})", GOTO="slate_device"$')

check = Checks()
lines = open(RULES).read().splitlines()
check(open(INSTALLED).read() == open(RULES).read(), "udev/70-slate.rules is installed")


def ids(pattern):
    return sorted((int(m.group(1), 16), int(m.group(2), 16)) for m in map(pattern.match, lines) if m)


shipped = sorted((vendor, product) for vendor, product, _, _ in SHIPPED)
check(ids(INPUT_IDS) == shipped, "the rules' input device lines are the devices tested here")
check(ids(USB_IDS) == shipped, "the rules' USB parent lines are the devices tested here")

# Each variant of the rules file: the lines left out, and whether the shipped devices are tagged.
VARIANTS = [
    ("the rules", None, True),
    ("the input device lines alone", USB_IDS, True),
    ("the USB parent lines alone", INPUT_IDS, True),
    ("the rules without their id lines", re.compile(r"^ATTRS\{id"), False),
]


def install(leave_out):
    kept = [line for line in lines if not (leave_out and leave_out.match(line))]
    with open(INSTALLED, "w") as handle:
        handle.write("\n".join(kept) + "\n")
    subprocess.run(["udevadm", "control", "--reload"], check=True)


def tagged(node):
    """Whether udev's last event for `node` tagged it uaccess and set
    SLATE_DEVICE=1, from udev's database (/run/udev/data: E: properties, Q:
    current tags), which is what `udevadm info` reads, without its start-up
    time under TCG."""
    device = os.stat(node).st_rdev
    with open("/run/udev/data/c%d:%d" % (os.major(device), os.minor(device))) as handle:
        entries = handle.read().splitlines()
    return "E:SLATE_DEVICE=1" in entries and "Q:uaccess" in entries


def describe(device, spec):
    vendor, product, _, _ = spec
    with open("/sys/class/input/%s/device/name" % os.path.basename(device.node)) as handle:
        name = handle.read().strip()
    return "%s %04x:%04x (%s)" % (name, vendor, product, device.node)


try:
    # Four at a time (usb_f_hid's limit); the check that a change event really
    # runs the rules again (no id lines, no tag) once.
    for batch, variants in ((SHIPPED[:4], VARIANTS), (SHIPPED[4:] + [OTHER], VARIANTS[:3])):
        devices = plug(*batch)
        for name, leave_out, tags in variants:
            install(leave_out)
            subprocess.run(["udevadm", "trigger", "--settle", "--action=change"] + [device.node for device in devices],
                           check=True)
            for device, spec in zip(devices, batch):
                expected = tags and spec is not OTHER
                check(tagged(device.node) == expected, "%s is %s by %s" % (
                    describe(device, spec), "tagged" if expected else "not tagged", name))
        unplug(devices)
finally:
    install(None)
check.finish()

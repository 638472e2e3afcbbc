"""What udev/70-slate.rules grants around uinput. /dev/uinput belongs to the
slate-uinput group (0660, no uaccess tag). uinput devices are not tagged,
whatever their ids (a pedal's, or those of Slate's clone of a real pedal),
except BlueZ's AVRCP device for a Bluetooth headset (bus 0005, the adapter's
address as phys); Slate's clone of that one is not, nor is a USB device named
like it. A user without /dev/uinput is told by `slate devices` which grab
needs it and what to do, and `slate monitor` listens without that grab and
says the same; in the slate-uinput group, the grab and its clone are made."""

import glob
import grp
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, SLATE, Checks, Slate, UInput  # noqa: E402
from usb_gadget import plug, unplug  # noqa: E402

check = Checks()


def udev_data(node):
    """udev's database entry for a device node: E: properties, G: tags, Q: current tags."""
    device = os.stat(node).st_rdev
    with open("/run/udev/data/c%d:%d" % (os.major(device), os.minor(device))) as handle:
        return handle.read().splitlines()


def tagged(node):
    entries = udev_data(node)
    return "E:SLATE_DEVICE=1" in entries and "Q:uaccess" in entries


def settle():
    subprocess.run(["udevadm", "settle"], check=True)


def clones_of(name, original, seconds=20):
    """The event nodes of other uinput devices named `name` (Slate's clones), once there is one."""
    end = time.monotonic() + seconds
    while True:
        found = []
        for folder in glob.glob("/sys/devices/virtual/input/input*"):
            with open(folder + "/name") as handle:
                if handle.read().strip() == name:
                    found += ["/dev/input/" + os.path.basename(event) for event in glob.glob(folder + "/event*")]
        found = [node for node in found if node != original]
        if found or time.monotonic() > end:
            settle()
            return found
        time.sleep(0.1)


# /dev/uinput: the group a user joins on purpose (the VM's init made it before udev started).
group = grp.getgrnam("slate-uinput").gr_gid
info = os.stat("/dev/uinput")
check(info.st_gid == group and info.st_mode & 0o777 == 0o660,
      "/dev/uinput is root:slate-uinput 0660 (gid %d, mode %o)" % (info.st_gid, info.st_mode & 0o777))
check(not any(entry in ("G:uaccess", "Q:uaccess") for entry in udev_data("/dev/uinput")),
      "/dev/uinput is not tagged uaccess")

# uinput devices: only BlueZ's AVRCP device is tagged.
fake = UInput("PCsensor FootSwitch", keys=["KEY_A", "KEY_B", "KEY_C"])
settle()
check(not tagged(fake.node), "a uinput device with a pedal's ids (3553:b001) is not tagged")
fake.destroy()
HEADSET_KEYS = ["KEY_VOLUMEDOWN", "KEY_VOLUMEUP", "KEY_NEXTSONG", "KEY_PLAYCD", "KEY_PAUSECD"]
headset = UInput("Headset (AVRCP)", keys=HEADSET_KEYS, bus=0x05, vendor=0, product=0, version=0,
                 phys="00:1a:7d:da:71:13")
settle()
check(tagged(headset.node), "BlueZ's AVRCP device (Bluetooth bus, the adapter's address as phys) is tagged")
pedal, usb_headset = plug((0x3553, 0xB001, "PCsensor", "FootSwitch"), (0x1209, 0x0002, "Headset", "(AVRCP)"))
with open("/sys/class/input/%s/device/name" % os.path.basename(usb_headset.node)) as handle:
    usb_name = handle.read().strip()
check(usb_name == "Headset (AVRCP)" and not tagged(usb_headset.node),
      "a USB device named %r is not tagged" % usb_name)
check(tagged(pedal.node), "a USB PCsensor FootSwitch is tagged")

# Slate's clones, made as it grabs both devices with keys it does not bind.
folder = tempfile.mkdtemp()
os.chmod(folder, 0o755)


def profile(name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as handle:
        handle.write(text + "capture:\n  primary: {click: take.toggle}\n")
    os.chmod(path, 0o644)
    return path


PEDAL = "  pedals:\n    match: [{vendor: 0x3553, product: 0xb001}]\n    bind: {KEY_B: primary}\n    grab: %s\n"
both = profile("both.yaml", "inputs:\n" + PEDAL % "always" +
               "  headset:\n    match: [{bus: bluetooth, name: \"* (AVRCP)\"}]\n"
               "    bind: {KEY_VOLUMEUP: primary}\n    grab: always\n")
grabbing = profile("grabbing.yaml", "inputs:\n" + PEDAL % "always")
listening = profile("listening.yaml", "inputs:\n" + PEDAL % "never")

monitor = Slate("monitor", "--profile", both)
monitor.wait_for_log("(PCsensor FootSwitch) is input 'pedals'", seconds=20)
monitor.wait_for_log("(Headset (AVRCP)) is input 'headset'", seconds=20)
pedal_clones = clones_of("PCsensor FootSwitch", pedal.node)
headset_clones = clones_of("Headset (AVRCP)", headset.node)
check(len(pedal_clones) == 1 and not tagged(pedal_clones[0]),
      "Slate's clone of the USB pedal (%s) is not tagged" % pedal_clones)
check(len(headset_clones) == 1 and not tagged(headset_clones[0]),
      "Slate's clone of the AVRCP device (%s) is not tagged" % headset_clones)
check(monitor.stop() == 0, "monitor exits 0")
headset.destroy()
end = time.monotonic() + 10
while clones_of("PCsensor FootSwitch", pedal.node, seconds=0) and time.monotonic() < end:
    time.sleep(0.1)
check(not clones_of("PCsensor FootSwitch", pedal.node, seconds=0), "the pedal's clone is gone with the monitor")

# A user who can read the pedal, and /dev/uinput only in the slate-uinput group.
os.chmod(pedal.node, 0o666)
OUTSIDE = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"]
MEMBER = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--groups", str(group)]


def devices(user, path):
    result = subprocess.run(user + [SLATE, "devices", "--json", "--profile", path], cwd=ROOT, capture_output=True,
                            text=True)
    entries = [json.loads(line) for line in result.stdout.splitlines()]
    entry = next((entry for entry in entries if entry["path"] == pedal.node), {"stderr": result.stderr})
    return {key: value for key, value in entry.items() if key in ("input", "clone", "warning", "stderr")}


text = subprocess.run(OUTSIDE + [SLATE, "devices", "--profile", grabbing], cwd=ROOT, capture_output=True,
                      text=True).stdout
check("    grabbing it takes a uinput clone for the keys input 'pedals' does not bind, and this user cannot open "
      "/dev/uinput: Slate will not grab it; join the slate-uinput group: sudo groupadd -r slate-uinput; "
      "sudo usermod -aG slate-uinput $USER; log in again" in text,
      "devices says a user outside slate-uinput cannot have the pedal's grab, and what to do: %s" % [
          line for line in text.splitlines() if "uinput" in line])
pedal_lines = text.split(pedal.node + "  ", 1)[-1].split("\n/dev/", 1)[0]
check("    tagged by Slate's udev rules" in pedal_lines, "devices shows the pedal's SLATE_DEVICE tag")
entry = devices(MEMBER, grabbing)
check(entry.get("clone") is True and "warning" not in entry, "in slate-uinput, no warning: %s" % entry)
entry = devices(OUTSIDE, listening)
check(entry.get("clone") is False and "warning" not in entry, "a profile that grabs nothing needs no uinput: %s" % entry)


def monitor_as(user, clone):
    """`slate monitor` on `grabbing` as `user` until it made the pedal's clone
    (`clone`) or said it would not grab the pedal: its log and the clones."""
    log = tempfile.TemporaryFile(mode="w+")
    process = subprocess.Popen(user + [SLATE, "monitor", "--profile", grabbing], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=log, text=True)
    clones = []
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if clone:
            clones = clones_of("PCsensor FootSwitch", pedal.node, seconds=0)
            if clones:
                break
        else:
            log.seek(0)
            if "not grabbing" in log.read():
                clones = clones_of("PCsensor FootSwitch", pedal.node, seconds=0)
                break
        time.sleep(0.1)
    process.terminate()
    process.wait(timeout=10)
    log.seek(0)
    return "\n".join(line for line in log.read().splitlines() if "grab" in line), clones


log, clones = monitor_as(OUTSIDE, clone=False)
check("not grabbing %s" % pedal.node in log and "join the slate-uinput group" in log and not clones,
      "monitor outside slate-uinput listens without the grab (clones %s of %s) and says what to do:\n%s" % (
          clones, pedal.node, log))
log, clones = monitor_as(MEMBER, clone=True)
check(len(clones) == 1 and "not grabbing" not in log, "monitor in slate-uinput grabs the pedal with its clone %s%s" % (clones, log))

unplug([pedal, usb_headset])
check.finish()

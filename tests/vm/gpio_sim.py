"""Simulated GPIO chips for the rig VM: gpio-sim (the kernel's configfs GPIO
simulator, Documentation/admin-guide/gpio/gpio-sim.rst). Debian's kernel
builds neither gpio-sim nor gpio-mockup, so scripts/gpio-sim-module builds it
on the host from Debian's linux-source and linux-headers into
$RIG_VM_CACHE/gpio-sim/VERSION/gpio-sim.ko (the host's root is the guest's);
`load()` inserts it after configfs. A `Chip` is a gpio-sim device with one
bank: a real GPIO chip (/dev/gpiochipN) that programs request lines of
through the character device, whose lines' values are read in sysfs."""

import fcntl
import os
import struct
import subprocess
import time

CONFIGFS = "/sys/kernel/config"
SIM = CONFIGFS + "/gpio-sim"

# linux/gpio.h (ABI v1): GPIO_GET_LINEINFO_IOCTL, struct gpioline_info.
GPIO_GET_LINEINFO_IOCTL = 0xC048B402
LINE_INFO = struct.Struct("II32s32s")
GPIOLINE_FLAG_KERNEL, GPIOLINE_FLAG_IS_OUT, GPIOLINE_FLAG_ACTIVE_LOW = 1, 2, 4


class Unavailable(Exception):
    """gpio-sim cannot be had for this kernel, for a reason outside the project."""


def cache():
    """rig-vm's cache folder on the host (scripts/rig-vm exports RIG_VM_CACHE)."""
    return os.environ.get("RIG_VM_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.environ.get("HOME", "/root"), ".cache"), "slate", "rig-vm")


def module_folder():
    return os.path.join(cache(), "gpio-sim", os.uname().release)


def load():
    """configfs (a module in Debian's kernel) mounted, then gpio-sim: the
    kernel's own when it has one, else the one scripts/gpio-sim-module built.
    Raises Unavailable with the script's reason when it could not build it."""
    if not os.path.isdir("/sys/module/configfs"):
        subprocess.run(["modprobe", "configfs"], check=True)
    if not os.path.isdir(SIM) and not os.path.ismount(CONFIGFS):
        subprocess.run(["mount", "-t", "configfs", "none", CONFIGFS], check=True)
    if os.path.isdir(SIM):
        return
    if subprocess.run(["modprobe", "-q", "gpio-sim"]).returncode == 0:
        return
    folder = module_folder()
    module = os.path.join(folder, "gpio-sim.ko")
    if os.path.exists(module):
        subprocess.run(["insmod", module], check=True)
        return
    reason = os.path.join(folder, "unavailable")
    if os.path.exists(reason):
        with open(reason) as handle:
            raise Unavailable("gpio-sim could not be built for %s: %s" % (os.uname().release, handle.read().strip()))
    raise RuntimeError("no %s: scripts/gpio-sim-module builds it on the host (the rig VM lane runs it before"
                       " booting; if it did, its output there says why it failed)" % module)


def unload():
    """Removes gpio-sim once no chip is left (the scenarios after find the VM as before)."""
    if os.path.isdir("/sys/module/gpio_sim"):
        subprocess.run(["rmmod", "gpio_sim"], check=True)


def _write(path, value):
    with open(path, "w") as handle:
        handle.write(value)


def _read(path):
    with open(path) as handle:
        return handle.read().strip()


class Chip:
    """A gpio-sim device NAME with one bank of `lines` lines, live: `chip_name`
    (gpiochipN), `node` (/dev/gpiochipN), `dev_name` (gpio-sim.N)."""

    def __init__(self, name, lines, label=None):
        self.config = os.path.join(SIM, name)
        self.bank = os.path.join(self.config, "gpio-bank0")
        os.mkdir(self.config)
        try:
            os.mkdir(self.bank)
            _write(os.path.join(self.bank, "num_lines"), str(lines))
            if label:
                _write(os.path.join(self.bank, "label"), label)
            # gpio-sim waits for the device to probe: when this returns the chip is there.
            _write(os.path.join(self.config, "live"), "1")
            self.dev_name = _read(os.path.join(self.config, "dev_name"))
            self.chip_name = _read(os.path.join(self.bank, "chip_name"))
        except BaseException:
            self._remove_config()
            raise
        self.node = "/dev/" + self.chip_name
        self.sysfs = "/sys/devices/platform/%s/%s" % (self.dev_name, self.chip_name)
        self._values = {}
        for _ in range(200):
            if os.path.exists(self.node):
                break
            time.sleep(0.01)

    def value(self, line):
        """The line's level as the chip sees it (what it drives, or its pull): 0 or 1."""
        fd = self._values.get(line)
        if fd is None:
            fd = self._values[line] = os.open("%s/sim_gpio%d/value" % (self.sysfs, line), os.O_RDONLY)
        return int(os.pread(fd, 8, 0))

    def set_pull(self, line, pull):
        """'pull-up' or 'pull-down' (the default): the level of a line nobody drives."""
        _write("%s/sim_gpio%d/pull" % (self.sysfs, line), pull)

    def line_info(self, line):
        """(flags, consumer) from the character device: GPIOLINE_FLAG_KERNEL
        when requested (consumer then names the requester), IS_OUT, ACTIVE_LOW."""
        fd = os.open(self.node, os.O_RDONLY)
        try:
            buffer = bytearray(LINE_INFO.pack(line, 0, b"", b""))
            fcntl.ioctl(fd, GPIO_GET_LINEINFO_IOCTL, buffer)
        finally:
            os.close(fd)
        _, flags, _, consumer = LINE_INFO.unpack(buffer)
        return flags, consumer.split(b"\0")[0].decode()

    def remove(self):
        for fd in self._values.values():
            os.close(fd)
        self._values = {}
        self._remove_config()

    def _remove_config(self):
        live = os.path.join(self.config, "live")
        if os.path.exists(live) and _read(live) == "1":
            _write(live, "0")
        for path in (self.bank, self.config):
            if os.path.isdir(path):
                os.rmdir(path)

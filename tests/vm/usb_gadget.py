"""USB devices for the rig VM: a HID keyboard gadget (configfs, usb_f_hid) on
the dummy_hcd controller, which the kernel enumerates as real USB hardware.
Its input device sits under /devices/platform/dummy_hcd.N/usbM/..., has a USB
parent with idVendor and idProduct, and is bound by the driver real hardware
with those ids gets (usbhid, or powermate for a Griffin PowerMate)."""

import glob
import os
import subprocess
import time

CONFIGFS = "/sys/kernel/config"
GADGETS = CONFIGFS + "/usb_gadget"
CONTROLLERS = 12

# A boot keyboard (HID 1.11, appendix B.1): a modifier byte, a reserved byte
# and six key usages in, five LEDs out.
KEYBOARD_REPORT = bytes([
    0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x03, 0x95, 0x05, 0x75, 0x01,
    0x05, 0x08, 0x19, 0x01, 0x29, 0x05, 0x91, 0x02, 0x95, 0x01, 0x75, 0x03, 0x91, 0x03, 0x95, 0x06,
    0x75, 0x08, 0x15, 0x00, 0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0,
])

# HID keyboard usages (page 7) of the keys the scenarios press.
USAGES = {"KEY_A": 0x04, "KEY_B": 0x05, "KEY_C": 0x06}


def load_drivers():
    """The controller with CONTROLLERS ports, the gadget side and the drivers
    real devices get (udev loads no modules in the VM)."""
    for module, *options in (("dummy_hcd", "num=%d" % CONTROLLERS), ("libcomposite",), ("usb_f_hid",), ("usbhid",),
                             ("hid_generic",), ("powermate",)):
        if not os.path.isdir("/sys/module/" + module):
            subprocess.run(["modprobe", module] + options, check=True)
    if not os.path.isdir(GADGETS):
        subprocess.run(["mount", "-t", "configfs", "none", CONFIGFS], check=True)


def _write(path, value):
    with open(path, "wb" if isinstance(value, bytes) else "w") as handle:
        handle.write(value)


def plug(*specs):
    """USB keyboards, one for each (vendor, product, manufacturer, name), once
    the kernel has enumerated them and udev has handled them. usb_f_hid has
    four minors: at most four are plugged in at a time."""
    load_drivers()
    devices = [UsbKeyboard(*spec) for spec in specs]
    for device in devices:
        device.wait()
    subprocess.run(["udevadm", "settle"], check=True)
    return devices


def unplug(devices):
    """Disconnects the devices and removes their gadgets."""
    for device in devices:
        device.disconnect()
    subprocess.run(["udevadm", "settle"], check=True)


class UsbHID:
    """A USB HID function with the given ids, strings and report descriptor,
    plugged into a free port of the dummy controller. Without `out_endpoint`
    the host's output and feature reports come as SET_REPORT requests, which
    f_hid hands to readers of `gadget_node` as it does reports from its OUT
    endpoint."""

    def __init__(self, vendor, product, manufacturer, name, descriptor, report_length, protocol=1, subclass=1,
                 out_endpoint=True):
        used = {open(path).read().strip() for path in glob.glob(GADGETS + "/*/UDC")}
        free = [udc for udc in os.listdir("/sys/class/udc") if udc not in used]
        if not free:
            raise RuntimeError("no free dummy_udc port")
        self.udc = min(free, key=lambda udc: int(udc.split(".")[1]))
        self.path = "%s/slate-%04x-%04x-%s" % (GADGETS, vendor, product, self.udc)
        os.mkdir(self.path)
        _write(self.path + "/idVendor", "0x%04x" % vendor)
        _write(self.path + "/idProduct", "0x%04x" % product)
        os.mkdir(self.path + "/strings/0x409")
        _write(self.path + "/strings/0x409/manufacturer", manufacturer)
        _write(self.path + "/strings/0x409/product", name)
        os.mkdir(self.path + "/configs/c.1")
        function = self.path + "/functions/hid.keys"
        os.mkdir(function)
        _write(function + "/protocol", str(protocol))
        _write(function + "/subclass", str(subclass))
        _write(function + "/report_length", str(report_length))
        _write(function + "/report_desc", descriptor)
        if not out_endpoint:
            _write(function + "/no_out_endpoint", "1")
        os.symlink(function, self.path + "/configs/c.1/hid.keys")
        _write(self.path + "/UDC", self.udc)
        self.gadget_node = "/dev/hidg" + open(function + "/dev").read().strip().split(":")[1]

    @property
    def interface(self):
        """The sysfs glob of the device's interface on the host side."""
        return "/sys/devices/platform/%s/usb*/*-*/*-*:*" % self.udc.replace("dummy_udc", "dummy_hcd")

    def disconnect(self):
        """Disconnects the device and removes the gadget."""
        if not os.path.isdir(self.path):
            return
        _write(self.path + "/UDC", "\n")
        os.unlink(self.path + "/configs/c.1/hid.keys")
        os.rmdir(self.path + "/configs/c.1")
        os.rmdir(self.path + "/functions/hid.keys")
        os.rmdir(self.path + "/strings/0x409")
        os.rmdir(self.path)


class UsbKeyboard(UsbHID):
    """A USB boot keyboard; `wait()` sets `node`, its /dev/input/eventN."""

    def __init__(self, vendor, product, manufacturer, name):
        super().__init__(vendor, product, manufacturer, name, KEYBOARD_REPORT, 8)
        self.node = None

    def wait(self):
        """Waits for the kernel to enumerate the device and udev to make its node."""
        # The interface's input device: under its HID device, or straight under
        # the interface for a driver that is not HID (powermate).
        interface = self.interface
        for _ in range(600):
            found = glob.glob(interface + "/*/input/input*/event*") + glob.glob(interface + "/input/input*/event*")
            if found and os.path.exists("/dev/input/" + os.path.basename(found[0])):
                self.node = "/dev/input/" + os.path.basename(found[0])
                return
            time.sleep(0.05)
        raise RuntimeError("no input device for the USB device on " + self.udc)

    def report(self, *keys):
        """Sends the keyboard's input report with `keys` down (none: all up)."""
        codes = [USAGES[key] for key in keys]
        with open(self.gadget_node, "wb") as handle:
            handle.write(bytes([0, 0] + codes + [0] * (6 - len(codes))))

    def click(self, key, hold=0.05):
        self.report(key)
        time.sleep(hold)
        self.report()

"""USB busylights for the rig VM: HID gadgets on dummy_hcd (usb_gadget.py)
with a busylight's ids and a vendor report descriptor like the real one's, so
the host sees them through the whole USB stack (usbhid, hidraw, udev). What
the host sends them (output reports on the OUT endpoint, or feature reports
as SET_REPORT requests) is read on the gadget side with the CLOCK_MONOTONIC
time it arrived."""

import glob
import os
import select
import threading
import time

from usb_gadget import UsbHID, load_drivers


def vendor_descriptor(count, kind, report_id=None):
    """A vendor-defined collection of one report of `count` bytes: `kind` 0x91
    (output) or 0xB1 (feature)."""
    descriptor = bytes([0x06, 0x00, 0xFF, 0x09, 0x01, 0xA1, 0x01])
    if report_id is not None:
        descriptor += bytes([0x85, report_id])
    descriptor += bytes([0x15, 0x00, 0x26, 0xFF, 0x00, 0x75, 0x08, 0x95, count, 0x09, 0x01, kind, 0x02, 0xC0])
    return descriptor


class UsbBusylight(UsbHID):
    """A busylight plugged in: `hidraw` is its node on the host, `taken()` the
    reports it received (monotonic seconds, bytes)."""

    def __init__(self, vendor, product, manufacturer, name, descriptor, report_length, feature=False):
        load_drivers()
        super().__init__(vendor, product, manufacturer, name, descriptor, report_length, protocol=0, subclass=0,
                         out_endpoint=not feature)
        self.reports = []
        self.lock = threading.Lock()
        self.reader = os.open(self.gadget_node, os.O_RDONLY | os.O_NONBLOCK)
        self.running = True
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        self.hidraw = self._wait_for_hidraw()

    def _read(self):
        while self.running:
            ready, _, _ = select.select([self.reader], [], [], 0.1)
            if not ready:
                continue
            try:
                data = os.read(self.reader, 4096)
            except BlockingIOError:
                continue
            except OSError:
                return
            arrived = time.clock_gettime(time.CLOCK_MONOTONIC)
            with self.lock:
                self.reports.append((arrived, data))

    def _wait_for_hidraw(self):
        for _ in range(600):
            found = glob.glob(self.interface + "/*/hidraw/hidraw*")
            if found and os.path.exists("/dev/" + os.path.basename(found[0])):
                return "/dev/" + os.path.basename(found[0])
            time.sleep(0.05)
        raise RuntimeError("no hidraw node for the busylight on " + self.udc)

    def taken(self):
        """The reports received so far: (monotonic seconds, bytes)."""
        with self.lock:
            return list(self.reports)

    def disconnect(self):
        self.running = False
        self.thread.join()
        os.close(self.reader)
        super().disconnect()

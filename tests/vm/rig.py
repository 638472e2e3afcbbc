"""Helpers for Slate's rig VM scenarios: uinput devices driven from Python's
standard library, and a `slate monitor` process read as JSON lines."""

import fcntl
import glob
import json
import os
import pwd
import select
import signal
import struct
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SLATE = os.environ.get("SLATE") or os.path.join(ROOT, ".build", "debug", "slate")
FAULTS = os.path.join(ROOT, ".build", "faults", "libslate-faults.so")

# linux/uinput.h and linux/input.h (x86_64).
UI_DEV_CREATE = 0x5501
UI_DEV_DESTROY = 0x5502
UI_DEV_SETUP = 0x405C5503
UI_SET_EVBIT = 0x40045564
UI_SET_KEYBIT = 0x40045565
UI_SET_RELBIT = 0x40045566
UI_SET_MSCBIT = 0x40045568
UI_SET_LEDBIT = 0x40045569
UI_SET_PHYS = 0x4008556C
UI_GET_SYSNAME_64 = 0x8040552C
EV_SYN, EV_KEY, EV_REL, EV_MSC, EV_LED = 0, 1, 2, 4, 0x11
EVENT = struct.Struct("llHHi")

CODES = {
    "KEY_A": 30, "KEY_B": 48, "KEY_C": 46, "KEY_X": 45, "KEY_Q": 16, "KEY_VOLUMEDOWN": 114,
    "KEY_VOLUMEUP": 115, "KEY_PLAYCD": 200, "KEY_PAUSECD": 201, "KEY_NEXTSONG": 163, "BTN_0": 0x100,
    "REL_DIAL": 7, "LED_NUML": 0, "LED_CAPSL": 1, "LED_SCROLLL": 2,
}


def _ended_by_signal(number, frame):
    """run-all's time limit sends SIGTERM: raised as SystemExit, a scenario's
    `finally` still unplugs its devices and stops what it started, so the
    scenarios after it find the VM as they expect."""
    raise SystemExit(128 + number)


signal.signal(signal.SIGTERM, _ended_by_signal)


def monotonic():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


class UInput:
    """A virtual input device (uinput), as a pedal, keyboard or knob would be."""

    def __init__(self, name, keys=(), rels=(), bus=0x03, vendor=0x3553, product=0xB001, version=0x0111,
                 phys=None, leds=()):
        # Read and written: the LEDs a program sets on the device come back on this descriptor.
        self.fd = os.open("/dev/uinput", os.O_RDWR | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_KEY)
        for key in keys:
            fcntl.ioctl(self.fd, UI_SET_KEYBIT, CODES.get(key, key))
        if rels:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_REL)
            for rel in rels:
                fcntl.ioctl(self.fd, UI_SET_RELBIT, CODES.get(rel, rel))
        if leds:
            fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_LED)
            for led in leds:
                fcntl.ioctl(self.fd, UI_SET_LEDBIT, CODES.get(led, led))
        if phys:
            buffer = phys.encode() + b"\0"
            fcntl.ioctl(self.fd, UI_SET_PHYS, buffer)
        setup = struct.pack("HHHH80sI", bus, vendor, product, version, name.encode(), 0)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, setup)
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        sysname = bytearray(64)
        fcntl.ioctl(self.fd, UI_GET_SYSNAME_64, sysname)
        self.sysname = sysname.split(b"\0")[0].decode()
        self.node = self._wait_for_node()

    def _wait_for_node(self):
        pattern = "/sys/devices/virtual/input/%s/event*" % self.sysname
        for _ in range(200):
            found = glob.glob(pattern)
            if found and os.path.exists("/dev/input/" + os.path.basename(found[0])):
                return "/dev/input/" + os.path.basename(found[0])
            time.sleep(0.01)
        raise RuntimeError("no event node for " + self.sysname)

    def leds(self):
        """The LED events programs wrote to the device since the last call:
        (CLOCK_MONOTONIC seconds the kernel stamped, code, value)."""
        found = []
        while True:
            try:
                data = os.read(self.fd, EVENT.size * 64)
            except BlockingIOError:
                return found
            for offset in range(0, len(data) - EVENT.size + 1, EVENT.size):
                seconds, micros, type_, code, value = EVENT.unpack_from(data, offset)
                if type_ == EV_LED:
                    found.append((seconds + micros / 1e6, code, value))

    def emit(self, type_, code, value):
        os.write(self.fd, EVENT.pack(0, 0, type_, CODES.get(code, code), value))

    def key(self, code, value):
        """A key event and its SYN_REPORT; returns the monotonic time just before the write."""
        stamp = monotonic()
        os.write(self.fd, EVENT.pack(0, 0, EV_KEY, CODES.get(code, code), value) + EVENT.pack(0, 0, EV_SYN, 0, 0))
        return stamp

    def rel(self, code, value):
        stamp = monotonic()
        os.write(self.fd, EVENT.pack(0, 0, EV_REL, CODES.get(code, code), value) + EVENT.pack(0, 0, EV_SYN, 0, 0))
        return stamp

    def click(self, code, hold=0.05):
        stamp = self.key(code, 1)
        time.sleep(hold)
        self.key(code, 0)
        return stamp

    def destroy(self):
        if self.fd is not None:
            fcntl.ioctl(self.fd, UI_DEV_DESTROY)
            os.close(self.fd)
            self.fd = None


def wait_until(predicate, what, seconds=30):
    """Polls `predicate` until it is true; fails naming `what` after `seconds`."""
    end = monotonic() + seconds
    while not predicate():
        if monotonic() > end:
            raise AssertionError("timed out waiting for %s" % what)
        time.sleep(0.02)


def keys_arriving(fd, count, seconds=30):
    """Reads (code, value) key events from an evdev node opened non-blocking
    until `count` have come or `seconds` pass; all of them."""
    keys = []
    end = monotonic() + seconds
    while len(keys) < count and monotonic() < end:
        select.select([fd], [], [], max(0, end - monotonic()))
        keys += [(code, value) for _, code, value in read_keys(fd)]
    return keys


def read_keys(fd):
    """The EV_KEY events waiting on an evdev node opened non-blocking, as
    (timestamp in ns, code, value)."""
    keys = []
    while True:
        try:
            data = os.read(fd, EVENT.size * 64)
        except BlockingIOError:
            return keys
        for offset in range(0, len(data), EVENT.size):
            sec, usec, type_, code, value = EVENT.unpack_from(data, offset)
            if type_ == EV_KEY:
                keys.append((sec * 1_000_000_000 + usec * 1000, code, value))


class Slate:
    """`slate ARGS --json` in the background; its output lines parsed as they come."""

    def __init__(self, *args, user=None, json_output=True, faults=None, bind_now=False):
        """`faults`: tests/faults/slate-faults.c settings (SLATE_FAULTS...) Slate runs with.
        `bind_now`: every library symbol resolved at start (LD_BIND_NOW), for a
        scenario that times Slate's first response: under the VM's emulated
        CPU each function's first call resolving its symbol adds up to ~70 ms
        to the first press, which a real machine does in about a millisecond."""
        command = [SLATE] + list(args) + (["--json"] if json_output else [])
        if user:
            entry = pwd.getpwnam(user)
            command = ["setpriv", "--reuid", str(entry.pw_uid), "--regid", str(entry.pw_gid), "--clear-groups"] + command
        env = dict(os.environ, LD_PRELOAD=FAULTS, **faults) if faults else None
        if bind_now:
            env = dict(env or os.environ, LD_BIND_NOW="1")
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        self.lines = []
        self.stderr = b""
        self._buffer = b""
        os.set_blocking(self.process.stdout.fileno(), False)
        os.set_blocking(self.process.stderr.fileno(), False)

    def poll(self, seconds):
        """Reads output for up to `seconds`."""
        end = monotonic() + seconds
        while True:
            remaining = end - monotonic()
            if remaining <= 0:
                return
            ready, _, _ = select.select([self.process.stdout, self.process.stderr], [], [], remaining)
            for stream in ready:
                data = os.read(stream.fileno(), 65536)
                if stream is self.process.stderr:
                    self.stderr += data
                    continue
                self._buffer += data
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    self.lines.append(json.loads(line) if line.startswith(b"{") else line.decode())

    def wait_for_log(self, text, seconds=30, count=1):
        """Reads until standard error holds `text` `count` times."""
        end = monotonic() + seconds
        while self.stderr.count(text.encode()) < count:
            if monotonic() > end:
                raise AssertionError("slate never logged %r; stderr:\n%s" % (text, self.stderr.decode()))
            self.poll(0.05)

    def wait_for(self, predicate, seconds=30, count=1):
        """Reads until `count` output lines satisfy `predicate` (JSON lines only)."""
        end = monotonic() + seconds
        while sum(1 for line in self.lines if isinstance(line, dict) and predicate(line)) < count:
            if monotonic() > end:
                raise AssertionError("timed out; output so far:\n%s\nstderr:\n%s" % (
                    "\n".join(map(str, self.lines)), self.stderr.decode()))
            self.poll(0.05)

    def count_within(self, predicate, count, seconds):
        """Reads until `count` output lines satisfy `predicate` or `seconds` pass; how many did."""
        end = monotonic() + seconds
        while True:
            seen = sum(1 for line in self.lines if isinstance(line, dict) and predicate(line))
            if seen >= count or monotonic() > end:
                return seen
            self.poll(0.05)

    def signal(self, number):
        self.process.send_signal(number)

    def stop(self):
        """SIGINT, then the exit status."""
        self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("slate did not exit on SIGINT")
        self.poll(0.2)
        return status


def summary(lines):
    """Capture and action lines as comparable tuples."""
    result = []
    for line in lines:
        if not isinstance(line, dict):
            continue
        if line["type"] == "capture":
            result.append(("capture", line["code"], line["role"], line["phase"]))
        elif line["type"] == "action":
            result.append(("action", line["action"], line.get("result")))
    return result


def check(condition, message):
    if not condition:
        print("FAIL: " + message)
        sys.exit(1)
    print("ok: " + message)


# `slate run` with a real camera: a footswitch profile like profiles/demo.yaml
# recording from vivid's /dev/video0.
PEDAL_NAME = "PCsensor FootSwitch"
PEDAL_KEYS = ["KEY_A", "KEY_B", "KEY_C"]

# A Griffin PowerMate's identity: its button and its dial.
KNOB_NAME = "Griffin PowerMate"
KNOB_IDS = {"vendor": 0x077D, "product": 0x0410}
KNOB_PROFILE = """  knob:
    match:
      - {vendor: 0x077d, product: 0x0410}
    bind: {BTN_0: control, REL_DIAL: control}
"""


def write_run_profile(folder, camera="/dev/video0", fps=30, max_size=None, right="take.delete-last", inputs="",
                      sections="", camera_keys="", debounce=None):
    """demo.yaml's pedals with `camera` at `fps` fps, h264 (at most `max_size`,
    e.g. "320x180"), the right pedal (KEY_C) bound to `right`, their
    `debounce` (None: the default); `inputs` (more
    input devices, e.g. KNOB_PROFILE), `sections` (more top-level sections,
    e.g. `controls`) and `camera_keys` (more keys of `camera`, e.g.
    `settings`) are YAML added as they are. Returns the profile's path."""
    path = os.path.join(folder, "rig.yaml")
    with open(path, "w") as handle:
        handle.write("""inputs:
%s  pedals:
    match:
      - {vendor: 0x3553, product: 0xb001}
    bind:
      KEY_B: primary
      KEY_A: secondary
      KEY_C: %s
    grab: always
%scapture:
  primary:
    click: take.toggle
    hold: take.start
    release: take.stop
  secondary:
    click: takes.export
%scamera:
  back: [%s]
  fps: %d
  codec: [h264]
""" % (inputs, right, "" if debounce is None else "    debounce: %s\n" % debounce, sections, camera, fps) + ("  max-size: %s\n" % max_size if max_size else "") + camera_keys)
    return path


def start_run(folder, camera="/dev/video0", fps=30, max_size=None, options=(), **profile):
    """`slate run --json` (and `options`) on a fresh profile in `folder` (takes
    in folder/takes, exports in folder/exports; `profile`: more of
    write_run_profile's arguments) and a uinput footswitch, bound once the
    camera streams. Returns (slate, pedal)."""
    path = write_run_profile(folder, camera, fps, max_size, **profile)
    slate = Slate("run", "--profile", path, "--work", os.path.join(folder, "takes"),
                  "--output", os.path.join(folder, "exports"), *options)
    # The camera is opened (and the encoder's speed probed) before the inputs start.
    slate.wait_for_log("recording %s" % camera, seconds=60)
    pedal = UInput(PEDAL_NAME, keys=PEDAL_KEYS)
    slate.wait_for_log("(%s) is input 'pedals'" % PEDAL_NAME, seconds=20)
    return slate, pedal


def plug_knob(slate):
    """A uinput Griffin PowerMate (BTN_0 and REL_DIAL), once `slate` has bound it as input 'knob'."""
    knob = UInput(KNOB_NAME, keys=["BTN_0"], rels=["REL_DIAL"], **KNOB_IDS)
    slate.wait_for_log("(%s) is input 'knob'" % KNOB_NAME, seconds=20)
    return knob


def driver_value(name, device="/dev/video0"):
    """A V4L2 control's value as `v4l2-ctl --get-ctrl` prints it (a menu's with its item: `5 (8 0x8)`)."""
    result = subprocess.run(["v4l2-ctl", "-d", device, "--get-ctrl", name], capture_output=True, text=True)
    prefix = name + ": "
    return next((line[len(prefix):] for line in result.stdout.splitlines() if line.startswith(prefix)),
                result.stderr.strip() or result.stdout.strip())


def set_driver_value(name, value, device="/dev/video0"):
    """Sets a V4L2 control with v4l2-ctl, as another program would."""
    subprocess.run(["v4l2-ctl", "-d", device, "--set-ctrl", "%s=%s" % (name, value)], check=True)


def is_take(event, number=None):
    """A predicate for `take` lines of an event (and take number)."""
    return lambda line: line.get("type") == "take" and line.get("event") == event and (
        number is None or line.get("take") == number)


def last(lines, predicate):
    found = [line for line in lines if isinstance(line, dict) and predicate(line)]
    return found[-1] if found else None


def record_take(slate, pedal, number, seconds=2.0):
    """Clicks the middle pedal, waits `seconds`, clicks again; returns the action
    line that started take `number`, its `started` and its `stopped` lines."""
    pedal.click("KEY_B")
    slate.wait_for(lambda line: line.get("result") == "started take %d" % number, seconds=15)
    slate.wait_for(is_take("started", number), seconds=15)
    time.sleep(seconds)
    pedal.click("KEY_B")
    slate.wait_for(lambda line: line.get("result") == "stopped take %d" % number, seconds=15)
    slate.wait_for(is_take("stopped", number), seconds=30)
    action = last(slate.lines, lambda line: line.get("result") == "started take %d" % number)
    return action, last(slate.lines, is_take("started", number)), last(slate.lines, is_take("stopped", number))


def probe(path):
    """ffprobe's view of a video file's first stream, every frame decoded
    (nb_read_frames) and every packet counted (nb_read_packets)."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-count_frames", "-count_packets", "-show_streams", "-of", "json", path],
        capture_output=True, text=True)
    if result.returncode != 0:
        return {"error": result.stderr.strip()}
    streams = json.loads(result.stdout).get("streams") or [{}]
    return streams[0]


def save_output(slate, name):
    """Keeps slate's output in the results folder, when there is one."""
    folder = os.environ.get("RIG_VM_RESULTS")
    if not folder:
        return
    with open(os.path.join(folder, name + ".out"), "w") as handle:
        handle.write("\n".join(json.dumps(line) if isinstance(line, dict) else line for line in slate.lines) + "\n")
    with open(os.path.join(folder, name + ".err"), "wb") as handle:
        handle.write(slate.stderr)


class Checks:
    """Checks that go on after a failure; `finish()` exits 1 if any failed."""

    def __init__(self):
        self.failures = 0

    def __call__(self, condition, message):
        print(("ok: " if condition else "FAIL: ") + message, flush=True)
        if not condition:
            self.failures += 1
        return condition

    def finish(self):
        if self.failures:
            print("%d check(s) failed" % self.failures)
            sys.exit(1)

"""A real Bluetooth headset in front of Slate: BlueZ's bluetoothd on two
controllers of one emulated radio (hci_vhci, btvirt), a pairing agent as a rig
sets one up (tests/vm/bt_agent.py), and the emulated headset
(.build/debug/slate-headset) on the second controller pairing with the rig's
and sending AVRCP PASS THROUGH commands over AVCTP. bluetoothd makes its real
`<name> (AVRCP)` input device; `slate run` binds it with the shipped
profiles/avrcp-headset.yaml (its inputs and capture unchanged; a small
test-pattern camera is appended, the VM being slow).

What it shows: the shipped profile matches BlueZ's node; a click toggles a take;
a 1.5 s hold records one take for the hold (the press BlueZ repeats is not a new
press); a press with no release ends as BlueZ ends it, 2 s later, as a release;
PLAY and PAUSE clicks by turns each toggle a take; a disconnect mid-hold cancels
the capture event and closes the take playable; a reconnect's new node is bound
and records; ten disconnects and reconnects leave no stuck button and no
descriptor behind; and how long a click takes from the headset's send to the
take's `started` line.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rig import ROOT, Checks, Slate, UInput, is_take, monotonic, probe, save_output  # noqa: E402

HEADSET = os.path.join(ROOT, ".build", "debug", "slate-headset")
HEADSET_NAME = "Slate Test Headset"
RATE = 48000
PROFILE = os.path.join(ROOT, "profiles", "avrcp-headset.yaml")
CAMERA = """
# Appended by tests/vm/bluetooth.py: the rig VM records a small test pattern.
camera:
  back: [testpattern]
  fps: 30
  max-size: 320x180
  codec: [h264]
"""


def run(*command):
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


class Stack:
    """D-Bus, two btvirt controllers, bluetoothd and the agent; hci0 is the rig's, hci1 the headset's."""

    def __init__(self, folder):
        self.processes = []
        subprocess.run(["modprobe", "hci_vhci"], check=True)
        os.makedirs("/run/dbus", exist_ok=True)
        os.makedirs("/var/lib/bluetooth", exist_ok=True)
        subprocess.run(["dbus-daemon", "--system", "--fork", "--nopidfile"], check=True)
        self.start(folder, "btvirt", ["btvirt", "-l2"])
        if os.environ.get("RIG_VM_RESULTS"):
            self.start(folder, "btmon", ["btmon", "-w", os.path.join(os.environ["RIG_VM_RESULTS"], "hci.btsnoop")])
        self.wait(lambda: os.path.exists("/sys/class/bluetooth/hci1"), "btvirt's two controllers")
        # A rig with no screen lets a headset that lost its key pair again (BlueZ's default refuses).
        config = os.path.join(folder, "main.conf")
        with open(config, "w") as handle:
            handle.write("[General]\nJustWorksRepairing = always\n")
        self.start(folder, "bluetoothd", ["/usr/libexec/bluetooth/bluetoothd", "-n", "-d", "-f", config])
        self.wait(lambda: subprocess.run(
            ["dbus-send", "--system", "--dest=org.bluez", "--print-reply", "/org/bluez",
             "org.freedesktop.DBus.Introspectable.Introspect"], capture_output=True).returncode == 0,
            "bluetoothd on the system bus")
        self.agent = self.start(folder, "agent", ["/usr/bin/python3", os.path.join(ROOT, "tests", "vm", "bt_agent.py")])
        self.wait(lambda: "agent registered" in open(os.path.join(folder, "agent.log")).read(), "the agent")
        run("btmgmt", "--index", "1", "name", HEADSET_NAME)
        for index in ("0", "1"):
            for setting in (["power", "on"], ["bredr", "on"], ["connectable", "on"], ["pairable", "on"]):
                run("btmgmt", "--index", index, *setting)
        self.rig = self.address("hci0")
        self.headset = self.address("hci1")
        self.folder = folder

    def start(self, folder, name, command):
        log = open(os.path.join(folder, name + ".log"), "w")
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    @staticmethod
    def wait(predicate, what, seconds=20):
        end = monotonic() + seconds
        while not predicate():
            if monotonic() > end:
                raise AssertionError("no " + what)
            time.sleep(0.01)

    @staticmethod
    def address(controller):
        for line in run("hciconfig", controller).splitlines():
            if "BD Address:" in line:
                return line.split("BD Address:")[1].split()[0]
        raise AssertionError("no address for " + controller)

    def log(self, name):
        with open(os.path.join(self.folder, name + ".log")) as handle:
            return handle.read()

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            process.wait(5)


class Headset:
    """slate-headset on hci1, fed its script a step at a time."""

    def __init__(self, stack):
        self.process = subprocess.Popen(
            [HEADSET, "--adapter", "hci1", "--rig", stack.rig], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.said = []
        self.rest = ""

    def do(self, step, expect=None, seconds=15):
        """Runs `step`; with `expect`, waits for that many lines of what the headset says."""
        self.process.stdin.write(step + "\n")
        self.process.stdin.flush()
        lines = []
        end = monotonic() + seconds
        while expect and len(lines) < expect:
            if monotonic() > end:
                raise AssertionError("the headset said %s after %r" % (lines, step))
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError("the headset ended after %r: %s %s" % (step, lines, self.rest))
            if not line.startswith("{"):
                self.rest += line
                continue
            said = json.loads(line)
            lines.append(said)
            self.said.append(said)
        return lines

    def stop(self):
        self.process.stdin.close()
        self.rest += self.process.stdout.read()
        self.process.wait(10)


def avrcp_nodes():
    """The /dev/input/eventN of each `(AVRCP)` device there is now."""
    nodes = []
    for folder in sorted(os.listdir("/sys/class/input")):
        path = os.path.join("/sys/class/input", folder)
        try:
            name = open(os.path.join(path, "name")).read().strip()
        except OSError:
            continue
        if name.endswith("(AVRCP)"):
            events = [entry for entry in os.listdir(path) if entry.startswith("event")]
            nodes.append((path, name, "/dev/input/" + events[0] if events else None))
    return nodes


def node_facts(path):
    def read(name):
        return open(os.path.join(path, name)).read().strip()
    return {"name": read("name"), "bus": read("id/bustype"), "vendor": read("id/vendor"), "product": read("id/product"),
            "version": read("id/version"), "phys": read("phys"), "uniq": read("uniq")}


def latencies(slate, first, click):
    """Clicks `click()` (which returns the press's time) 20 times to start takes `first`.., each
    stopped by a second click; the milliseconds from each press to its take's `started` line, sorted."""
    delays = []
    for number in range(first, first + 20):
        pressed = click()
        while not any(is_take("started", number)(line) for line in slate.lines if isinstance(line, dict)):
            slate.poll(0.002)
            if monotonic() - pressed > 10:
                raise AssertionError("take %d never started" % number)
        delays.append((monotonic() - pressed) * 1000)
        time.sleep(0.4)
        click()
        slate.wait_for(is_take("stopped", number), seconds=20)
        time.sleep(0.2)
    return sorted(delays)


def bursts(samples):
    """The sounds in mono 48 kHz samples: (start in seconds, pitch of its first 40 ms in Hz) each,
    a sound being what follows a sample above -30 dBFS after 200 ms of quiet."""
    found, index, quiet = [], 0, RATE // 5
    while index < len(samples):
        if abs(samples[index]) > 1000:
            window = samples[index:index + RATE // 25]
            crossings = sum(1 for a, b in zip(window, window[1:]) if (a < 0) != (b < 0))
            found.append((index / RATE, crossings / 2 / (len(window) / RATE)))
            index += 1
            while index < len(samples) and max(map(abs, samples[index:index + quiet]), default=0) > 1000:
                index += quiet
        index += 1
    return found


def capture_lines(slate, since):
    return [line for line in slate.lines[since:] if isinstance(line, dict) and line.get("type") == "capture"]


def main():
    check = Checks()
    folder = tempfile.mkdtemp(prefix="slate-bluetooth-")
    stack = Stack(folder)
    slate = None
    headset = Headset(stack)
    try:
        connected = headset.do("connect", expect=1, seconds=30)[0]
        check(connected["event"] == "connected", "the headset paired and opened AVCTP (%s)" % connected)
        Stack.wait(lambda: avrcp_nodes(), "(AVRCP) input device from bluetoothd")
        path, name, node = avrcp_nodes()[0]
        facts = node_facts(path)
        print("BlueZ's node: %s" % facts)
        check(facts["name"] == HEADSET_NAME + " (AVRCP)" and facts["bus"] == "0005",
              "bluetoothd made '%s (AVRCP)' on the Bluetooth bus" % HEADSET_NAME)
        check(facts["phys"].upper() == stack.rig, "its phys is the rig's adapter address (%s)" % facts["phys"])
        check(facts["uniq"] == "", "its uniq is empty: BlueZ 5.66 does not give the headset's address")
        subprocess.run(["udevadm", "settle"])
        devices = subprocess.run([os.path.join(ROOT, ".build", "debug", "slate"), "devices", "--profile", PROFILE],
                                 capture_output=True, text=True).stdout
        print(devices)
        check("matches input 'headset'" in devices, "the shipped profile matches BlueZ's node with no edit")
        check("Bluetooth: device address not given (empty uniq), adapter %s (phys)" % stack.rig in devices,
              "slate devices shows the adapter's address and says the headset's is not given")

        profile = os.path.join(folder, "avrcp-headset.yaml")
        with open(profile, "w") as handle:
            handle.write(open(PROFILE).read() + CAMERA)
        slate = Slate("run", "--profile", profile, "--work", os.path.join(folder, "takes"),
                      "--output", os.path.join(folder, "exports"))
        slate.wait_for_log("(%s (AVRCP)) is input 'headset'" % HEADSET_NAME, seconds=60)

        def take_line(event, number):
            slate.wait_for(is_take(event, number), seconds=20)

        def connect_and_record(number):
            """Connects the headset, waits for Slate to bind BlueZ's new node, records take `number` by two clicks."""
            bound = slate.stderr.count(b"is input 'headset'")
            headset.do("connect", expect=1, seconds=30)
            slate.wait_for_log("is input 'headset'", count=bound + 1, seconds=20)
            headset.do("click PLAY", expect=2)
            take_line("started", number)
            headset.do("click PLAY", expect=2)
            take_line("stopped", number)

        # Latency through BlueZ: 20 takes started by a click, from the press's send to the take's
        # `started` line.
        through_bluez = latencies(slate, 1, lambda: headset.do("click PLAY", expect=2)[0]["t"])

        # A click toggles a take, and the begin- and end-of-recording sounds are heard: snd-aloop's
        # capture side records what Slate plays on the default device (its playback side).
        mark = len(slate.lines)
        heard = os.path.join(folder, "heard.raw")
        recorder = subprocess.Popen(["arecord", "-q", "-D", "hw:0,1,0", "-f", "S16_LE", "-r", str(RATE), "-c", "1",
                                     "-B", "100000", "-F", "25000", "-t", "raw", "-d", "5", heard])
        # The recording's time 0 is when its stream starts running (to ~10 ms).
        Stack.wait(lambda: "state: RUNNING" in open("/proc/asound/card0/pcm1c/sub0/status").read(),
                   "snd-aloop's capture stream running", seconds=30)
        began = monotonic()
        time.sleep(0.5)
        clicks = [headset.do("click PLAY", expect=2)[0]["t"]]
        take_line("started", 21)
        time.sleep(1.5)
        clicks.append(headset.do("click PLAY", expect=2)[0]["t"])
        take_line("stopped", 21)
        recorder.wait(10)
        gestures = [line.get("gesture") for line in slate.lines[mark:] if isinstance(line, dict) and line.get("type") == "action"]
        check(gestures == ["click", "click"], "two clicks: take 21 started and stopped (%s)" % gestures)
        with open(heard, "rb") as handle:
            samples = memoryview(handle.read()).cast("h")
        sounds = bursts(samples)
        delays = [(start - (click - began)) * 1000 for (start, _), click in zip(sounds, clicks)]
        pitches = [pitch for _, pitch in sounds]
        check(len(sounds) == 2 and all(0 < delay < 400 for delay in delays)
              and abs(pitches[0] - 880) < 60 and abs(pitches[1] - 1318) < 80,
              "the remote clicks' sounds are heard on the card: %d bursts, %s ms after the clicks, opening at %s Hz "
              "(begin-video-recording rises from 880 Hz, end-video-recording falls from 1318 Hz)" % (
                  len(sounds), ", ".join("%.0f" % delay for delay in delays), ", ".join("%.0f" % p for p in pitches)))

        # A 1.5 s hold: one take, for the hold; BlueZ's repeated press is no new press.
        mark = len(slate.lines)
        said = headset.do("hold PLAY 1.5s", expect=6)
        take_line("stopped", 22)
        phases = [line["phase"] for line in capture_lines(slate, mark)]
        repeats = sum(1 for line in said if line["event"] == "repeat")
        check(phases == ["began", "ended"] and repeats == 4,
              "a 1.5 s hold with %d repeated presses is one capture event (%s) and one take" % (repeats, phases))
        started = [line for line in slate.lines[mark:] if isinstance(line, dict) and line.get("result") == "started take 22"]
        check(started and started[0].get("gesture") == "hold", "the hold started take 22 (%s)" % started)

        # A press with no release: BlueZ releases it itself, 2 s later.
        mark = len(slate.lines)
        headset.do("press PLAY", expect=1)
        take_line("stopped", 23)
        ended = capture_lines(slate, mark)
        phases = [line["phase"] for line in ended]
        held = ended[-1]["t"] - ended[0]["t"] if len(ended) == 2 else None
        check(phases == ["began", "ended"] and held is not None and 1.0 < held < 3.0,
              "a press with no release ends as a release %.2f s later (BlueZ's AVC_PRESS_TIMEOUT): %s" % (
                  held or -1, phases))

        # PLAY and PAUSE by turns, as many headsets send a click: each toggles a take.
        mark = len(slate.lines)
        headset.do("alternate 4 1.5s", expect=8, seconds=30)
        take_line("stopped", 25)
        codes = [line["code"] for line in capture_lines(slate, mark) if line["phase"] == "ended"]
        results = [line.get("result") for line in slate.lines[mark:] if isinstance(line, dict) and line.get("type") == "action"]
        check(codes == ["KEY_PLAYCD", "KEY_PAUSECD"] * 2 and results == [
            "started take 24", "stopped take 24", "started take 25", "stopped take 25"],
            "PLAY and PAUSE clicks by turns each toggle a take (%s; %s)" % (codes, results))

        # A disconnect mid-hold: the capture event is cancelled and the take closes playable.
        mark = len(slate.lines)
        headset.do("press PLAY", expect=1)
        take_line("started", 26)
        gone = slate.stderr.count(b"went away")
        headset.do("disconnect", expect=1)
        slate.wait_for(lambda line: line.get("phase") == "cancelled", seconds=10)
        take_line("stopped", 26)
        stopped = [line for line in slate.lines[mark:] if isinstance(line, dict) and is_take("stopped", 26)(line)][0]
        stream = probe(stopped["path"])
        check(stream.get("nb_read_frames") == str(stopped["frames"]) and stopped["frames"] > 0,
              "a disconnect mid-hold cancels the capture event and take 26 plays (%s frames)" % stopped["frames"])
        slate.wait_for_log("went away", count=gone + 1, seconds=20)

        # The same latency through a uinput imitation of BlueZ's node, in this run.
        bound = slate.stderr.count(b"is input 'headset'")
        imitation = UInput(HEADSET_NAME + " (AVRCP)", keys=["KEY_PLAYCD", "KEY_PAUSECD"], bus=0x05, vendor=0x1D6B,
                           product=0x0246, version=0x0542, phys=stack.rig.lower())
        slate.wait_for_log("is input 'headset'", count=bound + 1, seconds=20)
        try:
            through_uinput = latencies(slate, 27, lambda: imitation.click("KEY_PLAYCD", hold=0.01))
        finally:
            gone = slate.stderr.count(b"went away")
            imitation.destroy()
            slate.wait_for_log("went away", count=gone + 1, seconds=20)
        for name, delays in (("BlueZ", through_bluez), ("a uinput imitation of its node", through_uinput)):
            print("latency through %s, a click's press to the take's started line, 20 takes: median %.1f ms, "
                  "worst %.1f ms" % (name, statistics.median(delays), delays[-1]))

        # A reconnect: BlueZ makes a new node, Slate binds it, the next click records.
        nodes = {node for _, _, node in avrcp_nodes()}
        connect_and_record(47)
        stopped = [line for line in slate.lines if isinstance(line, dict) and is_take("stopped", 47)(line)][0]
        check(stopped["frames"] > 0 and probe(stopped["path"]).get("nb_read_frames") == str(stopped["frames"]),
              "after a reconnect BlueZ's new node (%s) is bound and a click records take 47, which plays" % (
                  ", ".join(node for _, _, node in avrcp_nodes() if node not in nodes) or "the same path"))
        # What this emulated radio does to a link made again: the rig's kernel may drop it some
        # seconds later (HCI Disconnect from hci0, no mgmt command before it); Slate sees the node go.
        gone = slate.stderr.count(b"went away")
        slate.poll(8.0)
        dropped = slate.stderr.count(b"went away") > gone
        print("after the reconnect the link %s" % (
            "was dropped by the rig's side within 8 s" if dropped else "stayed up for 8 s"))

        # Ten disconnects and reconnects, each letting the link go down as a headset's does:
        # no stuck button, no descriptor left behind.
        gone = slate.stderr.count(b"went away")
        headset.do("disconnect", expect=1)
        if not dropped:
            slate.wait_for_log("went away", count=gone + 1, seconds=20)
        time.sleep(2.5)
        bound = slate.stderr.count(b"is input 'headset'")
        descriptors = len(os.listdir("/proc/%d/fd" % slate.process.pid))
        for cycle in range(10):
            headset.do("connect", expect=1, seconds=30)
            slate.wait_for_log("is input 'headset'", count=bound + 1 + cycle, seconds=20)
            gone = slate.stderr.count(b"went away")
            headset.do("disconnect", expect=1)
            slate.wait_for_log("went away", count=gone + 1, seconds=20)
            time.sleep(2.5)
        slate.poll(0.5)
        after = len(os.listdir("/proc/%d/fd" % slate.process.pid))
        check(after <= descriptors, "ten reconnects leave slate run with %d descriptors (%d before)" % (after, descriptors))
        connect_and_record(48)
        phases = [line["phase"] for line in capture_lines(slate, 0)]
        check(phases.count("began") == phases.count("ended") + phases.count("cancelled"),
              "no button stuck: every press of the session ended (%d began, %d ended, %d cancelled), "
              "and a click after the reconnects records take 48" % (
                  phases.count("began"), phases.count("ended"), phases.count("cancelled")))
    finally:
        if slate:
            status = slate.stop()
            save_output(slate, "bluetooth")
            check(status == 0, "slate run ended cleanly")
        headset.stop()
        stack.stop()
        results = os.environ.get("RIG_VM_RESULTS")
        if results:
            for name in ("bluetoothd", "agent", "btvirt"):
                with open(os.path.join(results, name + ".log"), "w") as handle:
                    handle.write(stack.log(name))
            with open(os.path.join(results, "headset.out"), "w") as handle:
                handle.write("\n".join(json.dumps(line) for line in headset.said) + "\n" + headset.rest)
            with open(os.path.join(results, "dmesg.log"), "w") as handle:
                handle.write(run("dmesg"))
    check.finish()


if __name__ == "__main__":
    main()

"""A rig's long run: `slate run` (the release build) recording 1080p30 from the
test pattern for MINUTES minutes, a take a minute (58 s each), an export
after every 10 takes, while the page has clients (SSE on /events, /status.json
every second, the framing preview watched) and a broker carries a command a
second to the rig.

Each minute, half-way through its take, it samples the process's resident
memory, open descriptors and threads, and at the end reports their growth from minute 5 to the last
(goals: under 5 MB, 0 descriptors), the takes' dropped frames (goal 0), and
whether every export finished.

Usage: python3 tests/soak/soak.py [--minutes 60]   (SLATE names the binary)
"""

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SLATE = os.environ.get("SLATE", os.path.join(ROOT, ".build", "release", "slate"))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from checks import KEY_A, pedal_session  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tests", "hostile"))
from hostile_peers import Broker  # noqa: E402

PROFILE = """description: The soak rig, takes from the middle pedal and exports from the left.
inputs:
  pedals:
    match:
      - {{vendor: 0x3553, product: 0xb001}}
    bind:
      KEY_B: take.toggle
      KEY_A: takes.export
camera:
  back: [testpattern]
  fps: 30
  max-size: 1920x1080
  codec: [h264]
mqtt: {{broker: "mqtt://127.0.0.1:{port}", rig: soak}}
"""


def session(minutes):
    """A take a minute (from 1 s to 59 s of it), and an export of the ten
    takes half a second after every tenth stops (an export stops a take in
    progress, so it comes between takes)."""
    clicks = []
    for minute in range(minutes):
        clicks += [minute * 60 + 1.0, minute * 60 + 59.0]
        if minute % 10 == 9:
            clicks.append((minute * 60 + 59.5, KEY_A))
    return pedal_session(clicks, end=minutes * 60 + 30.0)


def sample(pid):
    """(RSS in kB, open descriptors, threads) of `pid` now."""
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd")), len(os.listdir(f"/proc/{pid}/task"))


def stream_client(port, path, stop):
    """Reads the stream at `path` (/events, /preview.mjpg) until `stop`."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        connection.settimeout(1.0)
        while not stop.is_set():
            try:
                if not connection.recv(1 << 20):
                    return
            except socket.timeout:
                continue


def status_poller(port, stop):
    while not stop.wait(1.0):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
                connection.sendall(b"GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                while connection.recv(65536):
                    pass
        except OSError:
            pass


def commands(broker, stop):
    """A command a second on the rig's topic, through one mosquitto_pub."""
    publisher = subprocess.Popen(
        ["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker.port), "-t", "slate/soak/cmd", "-q", "1", "-l"],
        stdin=subprocess.PIPE, text=True)
    number = 0
    while not stop.wait(1.0):
        number += 1
        publisher.stdin.write(json.dumps({"action": "zoom.set 1", "id": f"soak-{number}", "from": "soak-test"}) + "\n")
        publisher.stdin.flush()
    publisher.stdin.close()
    publisher.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=int, default=60)
    minutes = parser.parse_args().minutes
    if minutes < 6:
        raise SystemExit("the soak runs for at least 6 minutes (growth is measured from minute 5)")
    with tempfile.TemporaryDirectory(prefix="slate-soak-") as folder:
        broker = Broker(folder)
        profile = os.path.join(folder, "soak.yaml")
        with open(profile, "w") as out:
            out.write(PROFILE.format(port=broker.port))
        recording = os.path.join(folder, "pedal.evemu")
        with open(recording, "w") as out:
            out.write(session(minutes))
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(folder, "state"))
        process = subprocess.Popen(
            [SLATE, "run", "--profile", profile, "--replay", recording, "--work", os.path.join(folder, "takes"),
             "--output", folder, "--http", "127.0.0.1:0", "--json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        port = None
        for line in process.stderr:
            found = re.search(r"the rig's page: http://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            raise SystemExit("slate run printed no page address")
        errors = []
        threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True).start()
        lines = []
        threading.Thread(target=lambda: lines.extend(json.loads(line) for line in process.stdout), daemon=True).start()
        stop = threading.Event()
        clients = [threading.Thread(target=stream_client, args=(port, "/events", stop), daemon=True) for _ in range(5)]
        clients += [threading.Thread(target=stream_client, args=(port, "/preview.mjpg", stop), daemon=True),
                    threading.Thread(target=status_poller, args=(port, stop), daemon=True),
                    threading.Thread(target=commands, args=(broker, stop), daemon=True)]
        for client in clients:
            client.start()
        began = time.monotonic()
        samples = []
        # Each sample half-way through a minute's take, when no export runs.
        while process.poll() is None:
            minute = len(samples) + 1
            while process.poll() is None and time.monotonic() - began < minute * 60 + 30:
                time.sleep(0.5)
            if process.poll() is None:
                samples.append(sample(process.pid))
                rss, fds, threads = samples[-1]
                print(f"minute {minute:3d}: RSS {rss / 1024:7.1f} MB  descriptors {fds:4d}  threads {threads:3d}", flush=True)
        stop.set()
        process.wait()
        broker.stop()
    stopped = [line for line in lines if line.get("type") == "take" and line.get("event") == "stopped"]
    exported = [line for line in lines if line.get("type") == "take" and line.get("event") == "exported"]
    failed = [line for line in lines if line.get("type") == "take" and line.get("event") == "failed"]
    dropped = sum(line.get("dropped", 0) for line in stopped)
    first, last = samples[4], samples[min(minutes, len(samples)) - 1]
    growth = (last[0] - first[0]) / 1024
    print(f"slate run exited {process.returncode} after {len(samples)} minutes")
    print(f"takes: {len(stopped)} stopped, {dropped} frames dropped (goal 0); exports: {len(exported)} of "
          f"{minutes // 10} finished; {len(failed)} failed lines")
    print(f"from minute 5 to {min(minutes, len(samples))}: RSS {growth:+.1f} MB (goal under 5), descriptors {last[1] - first[1]:+d} "
          f"(goal 0), threads {last[2] - first[2]:+d}")
    if failed:
        print("failed:", failed[:3])
    if process.returncode != 0:
        print("".join(errors[-20:]))


if __name__ == "__main__":
    main()

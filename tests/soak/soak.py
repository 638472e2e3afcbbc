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
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices  # noqa: E402


def profile(broker):
    """The soak rig: takes from the middle pedal, exports from the left, 1080p30, commands from `broker`."""
    return harness.profile("The soak rig, takes from the middle pedal and exports from the left.",
                           {"KEY_B": "take.toggle", "KEY_A": "takes.export"}, size="1920x1080",
                           more='mqtt: {broker: "%s", rig: soak}\n' % broker.url)


def session(minutes):
    """A take a minute (from 1 s to 59 s of it), and an export of the ten
    takes half a second after every tenth stops (an export stops a take in
    progress, so it comes between takes)."""
    clicks = []
    for minute in range(minutes):
        clicks += [minute * 60 + 1.0, minute * 60 + 59.0]
        if minute % 10 == 9:
            clicks.append((minute * 60 + 59.5, devices.KEY_A))
    return devices.session(clicks, end=minutes * 60 + 30.0)


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
    publisher = subprocess.Popen(broker.client("mosquitto_pub", "-t", "slate/soak/cmd", "-q", "1", "-l"),
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
        broker = harness.Broker(folder)
        rig_profile = harness.write(os.path.join(folder, "soak.yaml"), profile(broker))
        recording = harness.write(os.path.join(folder, "pedal.evemu"), session(minutes))
        rig = harness.slate_run(folder, rig_profile, replay=recording, http="127.0.0.1:0",
                                binary_path=harness.binary("release"))
        port = rig.page_port()
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
        while rig.running():
            minute = len(samples) + 1
            while rig.running() and time.monotonic() - began < minute * 60 + 30:
                time.sleep(0.5)
            if rig.running():
                samples.append(rig.resources())
                rss, fds, threads = samples[-1]
                print(f"minute {minute:3d}: RSS {rss / 1024:7.1f} MB  descriptors {fds:4d}  threads {threads:3d}", flush=True)
        stop.set()
        rig.wait()
        broker.stop()
    stopped = rig.matching(harness.is_take("stopped"))
    exported = rig.matching(harness.is_take("exported"))
    failed = rig.matching(harness.is_take("failed"))
    dropped = sum(line.get("dropped", 0) for line in stopped)
    first, last = samples[4], samples[min(minutes, len(samples)) - 1]
    growth = (last[0] - first[0]) / 1024
    print(f"slate run exited {rig.returncode} after {len(samples)} minutes")
    print(f"takes: {len(stopped)} stopped, {dropped} frames dropped (goal 0); exports: {len(exported)} of "
          f"{minutes // 10} finished; {len(failed)} failed lines")
    print(f"from minute 5 to {min(minutes, len(samples))}: RSS {growth:+.1f} MB (goal under 5), descriptors {last[1] - first[1]:+d} "
          f"(goal 0), threads {last[2] - first[2]:+d}")
    if failed:
        print("failed:", failed[:3])
    if rig.returncode != 0:
        print("".join(rig.log().splitlines(keepends=True)[-20:]))


if __name__ == "__main__":
    main()

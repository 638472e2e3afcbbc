"""The rig's page against clients that hold its connections, with slate run
under `ulimit -n 1024` (systemd's default soft limit; here the hard limit
too, so slate run cannot raise it) while takes record:

- a head dribbled a byte every 0.5 s, a body declared and never sent, a
  Content-Length of 10 GB, a kept-alive connection left idle, and an event
  stream held past every timeout;
- Host fields of another site (DNS rebinding), of a name in the profile's
  http.hosts, of localhost, and none;
- 2,000 hostile clients at once, each sending half a request line and
  holding it, connecting again as soon as the page closes it, while a normal
  client asks for /status.json every 0.25 s and the pedal starts and stops
  two takes;
- as root, in a network namespace of its own: `--http 127.studio.lan:0`, a
  name that starts with 127. and resolves to a LAN address there.

What must hold: each timeout cuts at its budget (head 10 s from the
connection's opening however it dribbles, body 10 s, idle 5 s); the 10 GB
body is refused at once with 413; the stream goes on; a foreign Host gets
421 and no Host 400; during the flood the normal client is answered within
5 s every time (its connection waits its turn in the listen backlog behind the
attackers': a debug build accepts about a thousand a second, a release build
answers it in milliseconds), slate run holds at most 256 page connections
and its descriptors stay well under 1024, the takes start and stop, and
slate run ends cleanly without "Too many open files"; 127.studio.lan serves
no read without the token.

Usage: python3 tests/web/connections_page.py   (SLATE names the binary)
"""

import asyncio
import multiprocessing
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import Checks, devices, is_take, profiles  # noqa: E402
from harness.page import exchange  # noqa: E402

DESCRIPTORS = 1024
# `ulimit -n` sets the soft and the hard limit: slate run cannot raise it.
LIMITED = ["bash", "-c", 'ulimit -n %d && exec "$0" "$@"' % DESCRIPTORS]
CAP = 256
HOSTILE = 2000
HEAD, BODY, IDLE = 10.0, 10.0, 5.0
SLACK = 1.5
# The timeouts are checked from 1 s; the flood runs from FLOOD to FLOOD_END,
# with a take from 15 s to 19 s and another from 22 s to 26 s.
FLOOD, FLOOD_END = 13.0, 28.0
CLICKS, END = [15.0, 19.0, 22.0, 26.0], 31.0


def start(folder, clicks, end, listen="127.0.0.1:0", wrap=()):
    """`slate run --http LISTEN` under `ulimit -n 1024`, replaying `clicks`, with `wrap` before it (a command
    prefix): the framing rig (720p test pattern and tone) with an http section naming rig.example."""
    recording = devices.write_session(os.path.join(folder, "pedals.evemu"), clicks, end=end)
    profile = profiles.framing(folder, more="\nhttp:\n  listen: 127.0.0.1:8600\n  hosts: [rig.example]\n")
    rig = harness.slate_run(folder, profile, replay=recording, http=listen, wrap=list(wrap) + LIMITED)
    rig.page_port()
    return rig


def ready(rig, address="127.0.0.1"):
    """Waits until the page at `address` has the rig's status (the camera is open)."""
    request = b"GET /status.json HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    harness.wait_for(lambda: exchange(rig.page_port(), request, address=address).status == 200, 30,
                     "the page's status", every=0.1, raises=False)


def until_closed(connection, limit):
    """Seconds until the server closes `connection` (None if it has not within `limit`), and what it sent."""
    start, answer = time.monotonic(), b""
    connection.settimeout(0.2)
    while time.monotonic() - start < limit:
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            continue
        except ConnectionError:
            return time.monotonic() - start, answer
        if not chunk:
            return time.monotonic() - start, answer
        answer += chunk
    return None, answer


def dribbled_head(port, results):
    """A request head sent a byte every 0.5 s after half a request line: closed 10 s after opening."""
    opened = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        connection.settimeout(0.5)
        answer = b""
        while time.monotonic() - opened < HEAD + 5:
            try:
                connection.sendall(b"a")
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
            except socket.timeout:
                continue
            except OSError:
                break
        results["dribbled head"] = (time.monotonic() - opened, answer)


def unsent_body(port, token, results):
    """A POST declaring 100 bytes and sending 10: closed 10 s after its head."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"POST /actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                           "Content-Length: 100\r\n\r\n{\"action\"".encode())
        results["unsent body"] = until_closed(connection, BODY + 5)


def idle_keep_alive(port, results):
    """A kept-alive connection after its response: closed 5 s after it."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        connection.settimeout(3)
        while not re.search(rb"\r\n\r\n.*\}\n$", answer, re.S):
            answer += connection.recv(65536)
        results["idle keep-alive"] = until_closed(connection, IDLE + 5)


class Stream:
    """One /events client, held for the whole run: what it got, and when the page closed it."""

    def __init__(self, port):
        self.text, self.closed_at = "", None
        self.connection = socket.create_connection(("127.0.0.1", port))
        self.connection.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        self.connection.settimeout(0.5)
        while not self.done.is_set():
            try:
                chunk = self.connection.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self.closed_at = time.monotonic()
                return
            self.text += chunk.decode(errors="replace")

    def stop(self):
        self.done.set()
        self.thread.join(2)
        self.connection.close()


async def hostile(port, stop, counts):
    """Half a request line, held until the page closes it; then again."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            counts["refused"] += 1
            await asyncio.sleep(0.05)
            continue
        counts["arrived"] += 1
        try:
            writer.write(b"GET /status.json HTTP/1.1\r\nHost: 127.0.")
            await writer.drain()
            while not stop.is_set():
                try:
                    if not await asyncio.wait_for(reader.read(4096), 0.5):
                        counts["closed"] += 1
                        break
                except asyncio.TimeoutError:
                    continue
        except OSError:
            counts["closed"] += 1
        finally:
            writer.close()


def normal_client(port, stop, latencies, failures):
    while not stop.is_set():
        try:
            answer = exchange(port, b"GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                              timeout=10)
            latencies.append(answer.seconds)
            if answer.status != 200:
                failures.append(f"{answer.status} {answer.body[:80]}")
        except OSError as error:
            failures.append(repr(error))
        time.sleep(0.25)


def attack(port, stop, counts):
    """The hostile clients, in a process of their own so that the normal client's timing is the page's alone,
    niced: an attacker elsewhere spends none of the rig's CPU."""
    os.nice(19)
    tally = {"arrived": 0, "closed": 0, "refused": 0}

    async def run():
        await asyncio.gather(*(hostile(port, stop, tally) for _ in range(HOSTILE)))

    asyncio.run(run())
    counts.put(tally)


def descriptors(rig):
    return rig.resources()[1]


def flood(rig, began, check):
    """2,000 hostile clients while the normal client asks and the pedal records."""
    stop, counts = multiprocessing.Event(), multiprocessing.Queue()
    latencies, failures, descriptors_seen = [], [], []
    baseline = descriptors(rig)
    attacker = multiprocessing.Process(target=attack, args=(rig.page_port(), stop, counts), daemon=True)
    attacker.start()
    time.sleep(1.0)
    client_stop = threading.Event()
    client = threading.Thread(target=normal_client, args=(rig.page_port(), client_stop, latencies, failures),
                              daemon=True)
    client.start()
    while time.monotonic() < began + FLOOD_END and rig.running():
        descriptors_seen.append(descriptors(rig))
        time.sleep(0.2)
    client_stop.set()
    stop.set()
    client.join(15)
    tally = counts.get(timeout=30)
    attacker.join(15)
    latencies.sort()
    check(not failures, f"the normal client during the flood: {len(latencies)} requests, failures {failures[:3]}")
    check(latencies and latencies[-1] < 5.0,
          f"answered in {latencies[len(latencies) // 2] * 1000:.0f} ms median, {latencies[-1] * 1000:.0f} ms at worst"
          if latencies else "the normal client got no answer")
    check(tally["arrived"] >= HOSTILE,
          f"{tally['arrived']} hostile connections arrived ({tally['closed']} closed by the page, "
          f"{tally['refused']} connects failed)")
    check(max(descriptors_seen) <= baseline + CAP + 16,
          f"slate run's descriptors: {baseline} before the flood, at most {max(descriptors_seen)} during it "
          f"(limit {DESCRIPTORS}, page cap {CAP})")


def host_checks(rig, check):
    def status(host):
        field = f"Host: {host}\r\n" if host else ""
        answer = exchange(rig.page_port(), f"GET /status.json HTTP/1.1\r\n{field}Connection: close\r\n\r\n".encode())
        return answer.status, answer.body

    port = rig.page_port()
    code, body = status(f"rebind.attacker.example:{port}")
    check(code == 421 and "http.hosts" in body, f"Host rebind.attacker.example -> {code} {body.strip()[:120]}")
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"rig.example:{port}"):
        code, _ = status(host)
        check(code == 200, f"Host {host} -> {code}")
    code, _ = status(f"127.0.0.1:{port + 1}")
    check(code == 421, f"Host 127.0.0.1 with another port -> {code}")
    code, body = status(None)
    check(code == 400, f"no Host on HTTP/1.1 -> {code} {body.strip()[:80]}")


def timeout_checks(rig, check):
    results = {}
    port, token = rig.page_port(), rig.token()
    answer = exchange(
        port, f"POST /actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Content-Length: 10000000000\r\n\r\n".encode(), timeout=5)
    code, took = answer.status, answer.seconds
    check(code == 413 and took < 1.0,
          f"a POST declaring 10 GB -> {code} in {took * 1000:.0f} ms: {answer.body.strip()[:80]}")
    threads = [threading.Thread(target=target, args=args) for target, args in (
        (dribbled_head, (port, results)), (unsent_body, (port, token, results)),
        (idle_keep_alive, (port, results)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    after, answer = results.get("dribbled head", (None, b""))
    check(after is not None and HEAD - 0.5 < after < HEAD + SLACK and b" 408 " in answer,
          f"a head dribbled a byte every 0.5 s: closed after {after and round(after, 1)} s (budget {HEAD:.0f} s), "
          f"{answer[:12]!r}")
    after, answer = results.get("unsent body", (None, b""))
    check(after is not None and BODY - 0.5 < after < BODY + SLACK and b" 408 " in answer,
          f"a body declared and not sent: closed after {after and round(after, 1)} s (budget {BODY:.0f} s)")
    after, _ = results.get("idle keep-alive", (None, b""))
    check(after is not None and IDLE - 0.5 < after < IDLE + SLACK,
          f"an idle kept-alive connection: closed after {after and round(after, 1)} s (budget {IDLE:.0f} s)")


def studio_lan(folder, check):
    """`--http 127.studio.lan:0`, the name resolving to a LAN address: in a network namespace of the test's own,
    where a veth pair holds 192.0.2.10 (an address for documentation) and /etc/netns gives it its own
    /etc/hosts; the requests are made from inside it."""
    if os.geteuid() != 0 or not shutil.which("ip"):
        print("skipped: 127.studio.lan needs root and ip (a network namespace of its own)")
        return
    namespace, address = f"slate-lan-{os.getpid()}", "192.0.2.10"
    etc = f"/etc/netns/{namespace}"
    subprocess.run(["ip", "netns", "add", namespace], check=True)
    inside = ("ip", "netns", "exec", namespace)
    try:
        for argv in (["ip", "link", "set", "lo", "up"], ["ip", "link", "add", "lan0", "type", "veth", "peer", "name", "lan1"],
                     ["ip", "addr", "add", address + "/24", "dev", "lan0"], ["ip", "link", "set", "lan1", "up"],
                     ["ip", "link", "set", "lan0", "up"]):
            subprocess.run([*inside, *argv], check=True)
        os.makedirs(etc, exist_ok=True)
        with open(os.path.join(etc, "hosts"), "w") as out:
            out.write(f"127.0.0.1 localhost\n::1 localhost\n{address} 127.studio.lan\n")
        rig = start(folder, [], 6.0, listen="127.studio.lan:0", wrap=inside)
        port = rig.page_port()

        def ask(token):
            auth = f"Authorization: Bearer {rig.token()}\r\n" if token else ""
            request = f"GET /status.json HTTP/1.1\r\nHost: 127.studio.lan:{port}\r\n{auth}Connection: close\r\n\r\n"
            snippet = (f"from harness.page import exchange; "
                       f"print(exchange({port}, {request.encode()!r}, address={address!r}).status)")
            answer = subprocess.run([*inside, sys.executable, "-c", snippet], capture_output=True, text=True,
                                    env=dict(os.environ, PYTHONPATH=harness.TESTS))
            return answer.stdout.strip()

        harness.wait_for(lambda: ask(True) == "200", 30, "the page in the namespace", every=0.2, raises=False)
        code = ask(False)
        check(code == "401", f"--http 127.studio.lan:0 bound to {address}: a read without a credential -> {code}")
        code = ask(True)
        check(code == "200", f"with the token -> {code}")
        rig.wait(30)
        notice = [line for line in rig.log().splitlines() if "not a loopback address" in line]
        check(notice and address in notice[0], f"slate run says so: {notice[0].strip() if notice else 'nothing'}")
    finally:
        shutil.rmtree(etc, ignore_errors=True)
        subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)


def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * HOSTILE), hard))
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="slate-connections-") as folder:
        rig = start(folder, CLICKS, END)
        began = time.monotonic()
        ready(rig)
        stream = Stream(rig.page_port())
        host_checks(rig, check)
        timeout_checks(rig, check)
        while time.monotonic() < began + FLOOD:
            time.sleep(0.1)
        flood(rig, began, check)
        held = stream.closed_at is None or stream.closed_at > began + FLOOD_END
        rig.wait(60)
        stream.stop()
        events, stops = stream.text.count("event: "), stream.text.count('"event":"stopped"')
        check(held and stops == 2,
              f"an event stream opened at the start: {'open' if held else 'closed'} {FLOOD_END:.0f} s later, past every "
              f"timeout, {events} events, {stops} takes stopped")
        started, stopped = rig.matching(is_take("started")), rig.matching(is_take("stopped"))
        check(len(started) == 2 and len(stopped) == 2,
              f"the pedal during the flood: {len(started)} takes started, {len(stopped)} stopped")
        errors = rig.log()
        check(rig.returncode == 0 and "Too many open files" not in errors,
              f"slate run ended with {rig.returncode}" + (f":\n{errors[-600:]}" if rig.returncode else ""))
    with tempfile.TemporaryDirectory(prefix="slate-studio-lan-") as folder:
        studio_lan(folder, check)
    check.finish("page connections")


if __name__ == "__main__":
    main()

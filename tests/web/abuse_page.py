"""The rig's page under hostile use while a 1080p30 take records:

- 200 clients on /events at once (past the page's 128 streams), and 20
  slowloris clients that send their
  request headers a byte a second and never finish (the page closes each
  at its 10 s head timeout);
- path traversal, plain and encoded, on every route;
- oversized and malformed requests: a 64 KiB header, a 16 KiB URL, a request
  line that is not HTTP, a body over 4 KiB, JSON that is not an action,
  unknown actions.

What must hold: every hostile request gets a 4xx answer or is closed, and
none reads a file outside the page; 128 of the 200 clients get the take's
`stopped` line, the other 72 a 503 saying the page's streams are all open; a client connecting last still gets the status at
once; the take has 0 dropped frames; slate run ends cleanly.

Usage: python3 tests/web/abuse_page.py   (SLATE names the binary)
"""

import asyncio
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, is_take, profiles  # noqa: E402
from harness.page import exchange, request  # noqa: E402

CLIENTS = 200
# slate run raises its descriptor limit to 4096: 256 connections, half of them streams.
STREAMS = 128
SLOW_CLIENTS = 20
# The take records from 2 s to 24 s of the replay; the abuse runs in between.
START, STOP, END = 2.0, 24.0, 26.0

TRAVERSALS = [
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
    "/%252e%252e/%252e%252e/etc/passwd",
    "/..%2f..%2f..%2fetc%2fpasswd",
    "/page.css/../../../../etc/passwd",
    "/page.css%2f..%2f..%2f..%2fPackage.swift",
    "/takes/1/../../../../etc/passwd",
    "/takes/..%2f..%2f..%2fetc%2fpasswd/thumbnail.jpg",
    "/takes/1%2f..%2f..%2fmanifest.json/thumbnail.jpg",
    "/takes/-1/thumbnail.jpg",
    "/takes/99999999999999999999999/thumbnail.jpg",
    "/prompter/../../../../etc/passwd",
    "/prompter/script.json/..%2f..%2f..%2fetc%2fpasswd",
    "/preview.mjpg/../../../etc/passwd",
    "/events/..%2f..%2f..%2fetc%2fshadow",
    "/..\\..\\..\\etc\\passwd",
    "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
    "//etc/passwd",
]


class Listener:
    """One /events client: counts its events and notes the lines it was sent."""

    def __init__(self):
        self.events = 0
        self.stopped = False
        self.refused = None
        self.failure = None

    async def run(self, port, done):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            await writer.drain()
            buffer = b""
            while not done.is_set():
                try:
                    chunk = await asyncio.wait_for(reader.read(65536), 0.5)
                except asyncio.TimeoutError:
                    continue
                if not chunk:
                    break
                buffer += chunk
                if buffer.startswith(b"HTTP/1.1 503 ") and b"\r\n\r\n" in buffer:
                    self.refused = buffer.decode(errors="replace")
                    break
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    if b"event: " in event:
                        self.events += 1
                    if b'"event":"stopped"' in event:
                        self.stopped = True
            writer.close()
        except Exception as error:  # noqa: BLE001 - reported as the client's failure
            self.failure = repr(error)


async def slowloris(port, done, held, cut):
    """Opens a connection and sends a header a byte a second, never ending it, until the page closes it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /status.json HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        await writer.drain()
        held.append(1)
        while not done.is_set():
            writer.write(b"X")
            await writer.drain()
            try:
                if not await asyncio.wait_for(reader.read(65536), 1.0):
                    cut.append(1)
                    break
            except asyncio.TimeoutError:
                pass
        writer.close()
    except (ConnectionError, OSError):
        cut.append(1)


def hostile_requests(port, token):
    """Each hostile request and what it got; raises on any answer that is not a refusal."""

    def ask(raw):
        answer = exchange(port, raw, timeout=5.0)
        return answer.status, answer.raw

    checks = []
    for path in TRAVERSALS:
        for raw in (request("GET", path), request("GET", path, token=token)):
            code, answer = ask(raw)
            assert code in (400, 404, None), (path, code, answer[:200])
            assert b"root:" not in answer and b"swift-tools-version" not in answer, (path, answer[:300])
        checks.append(f"{path} -> {code}")

    code, _ = ask(request("GET", "/status.json", headers="X-Big: " + "a" * 65536 + "\r\n"))
    assert code in (431, 400, None), code
    checks.append(f"a 64 KiB header -> {code or 'closed'}")
    code, _ = ask(request("GET", "/" + "a" * 16384))
    assert code in (400, 404, 414, 431, None), code
    checks.append(f"a 16 KiB URL -> {code or 'closed'}")
    for raw in (b"NONSENSE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\0" * 64,
                b"GET /status.json HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n",
                b"POST /actions HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\nzz\r\n"):
        code, _ = ask(raw)
        assert code in (400, 401, 411, 413, 421, 501, 505, None), (raw[:40], code)
        checks.append(f"{raw[:24]!r}... -> {code or 'closed'}")

    code, answer = ask(request("POST", "/actions", token=token, body=b'{"action":"' + b"a" * 8192 + b'"}'))
    assert code == 413, (code, answer[:200])
    checks.append(f"an 8 KiB action -> {code}")
    for body, word in ((b"[1,2,3]", b"must be JSON"), (b'{"action": 7}', b"must be JSON"),
                       (b"\xff\xfe\x00", b"must be JSON"), (b'{"action":"warp.drive 9"}', b"warp.drive"),
                       (b'{"action":"exec [/bin/sh, -c, reboot]"}', b"macro"),
                       (b'{"action":"take.delete 999999999999"}', b"take.delete")):
        code, answer = ask(request("POST", "/actions", token=token, body=body))
        assert code == 400 and word in answer, (body, code, answer[-300:])
        error = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
        checks.append(f"{body[:32]!r} -> 400 {error[:60]!r}")
    code, _ = ask(request("POST", "/actions", body=b'{"action":"take.toggle"}'))
    assert code == 401, code
    checks.append("an action without the token -> 401")
    return checks


async def abuse(port, token, rig):
    done = asyncio.Event()
    listeners = [Listener() for _ in range(CLIENTS)]
    tasks = [asyncio.create_task(listener.run(port, done)) for listener in listeners]
    held, cut = [], []
    slow = [asyncio.create_task(slowloris(port, done, held, cut)) for _ in range(SLOW_CLIENTS)]
    while not rig.line(is_take("started")):
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)
    # The requests, one after another, on a thread of their own: the clients above go on meanwhile.
    checks = await asyncio.to_thread(hostile_requests, port, token)
    # A client arriving now, with all the others held, gets the status at once.
    began = time.monotonic()
    answer = await asyncio.to_thread(exchange, port, request("GET", "/status.json"), 5.0)
    late = time.monotonic() - began
    assert answer.status == 200 and b'"recording":true' in answer.raw, (answer.status, answer.raw[:200])
    return done, listeners, tasks, slow, held, cut, checks, late


def main():
    with tempfile.TemporaryDirectory(prefix="slate-abuse-") as folder:
        recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [START, STOP], end=END)
        rig = harness.slate_run(folder, profiles.bench_1080p(folder), replay=recording, http="127.0.0.1:0")
        port, token = rig.page_port(), rig.token()

        async def run():
            done, listeners, tasks, slow, held, cut, checks, late = await abuse(port, token, rig)
            while rig.running() and not all(listener.stopped or listener.refused for listener in listeners):
                await asyncio.sleep(0.1)
            await asyncio.sleep(0.5)
            done.set()
            await asyncio.gather(*tasks, *slow)
            return listeners, held, cut, checks, late

        listeners, held, cut, checks, late = asyncio.run(run())
        rig.wait(60)
    assert rig.returncode == 0, "slate run failed:\n" + rig.log()
    for check in checks:
        print(f"  {check}")
    failures = [listener.failure for listener in listeners if listener.failure]
    assert not failures, failures[:3]
    got_stop = sum(listener.stopped for listener in listeners)
    refused = [listener.refused for listener in listeners if listener.refused]
    events = sorted(listener.events for listener in listeners if listener.stopped)
    take = rig.line(is_take("stopped"))
    print(f"{CLIENTS} /events clients: {got_stop} got the take's stopped line (events each {events[0]} to "
          f"{events[-1]}), {len(refused)} were refused")
    print(f"{len(held)} slowloris connections, {len(cut)} closed by the page's head timeout; "
          f"a request made amid them answered in {late * 1000:.0f} ms")
    print(f"the 1080p30 take: {take['frames']} frames, {take['dropped']} dropped (goal 0)")
    assert got_stop == STREAMS, f"{got_stop} of {CLIENTS} clients got the stopped line, not {STREAMS}"
    assert len(refused) == CLIENTS - STREAMS and all("the page has its 128 streams (events, previews) open" in answer
                                                     for answer in refused), refused[:1]
    assert take["dropped"] == 0, take
    assert len(cut) == SLOW_CLIENTS, f"only {len(cut)} of {SLOW_CLIENTS} slowloris connections were closed"
    print("page abuse: all checks passed")


if __name__ == "__main__":
    sys.exit(main())

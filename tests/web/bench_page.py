"""The rig's page under load: `slate run --http` (the release build) with the
test-pattern camera.

1. Latency of Server-Sent Events: 20 takes started and stopped by a replayed
   pedal; for each `started` line, when it reached an SSE client of /events,
   against when the daemon dispatched it (its `dispatched`, on CLOCK_MONOTONIC,
   which Python's time.monotonic reads too). Beside it, the same lines through
   slate's own stdout pipe, in the same run.
2. wrk on /status.json for 10 s with 50 connections while a 1080p30 take
   records: requests a second, and the take's dropped frames (goal 0).
3. The framing preview's cost while a 1080p30 take records: slate run's CPU
   time over 8 s with one /preview.mjpg viewer, against 8 s before and after
   with none, as a fraction of one core; beside it, ffmpeg making the same
   pictures (1080p scaled to 640 px, JPEG) from raw frames, per picture.

Usage: python3 tests/web/bench_page.py   (SLATE names the binary)
"""

import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from harness import devices, is_take, profiles  # noqa: E402


def start(folder, profile, recording):
    """`slate run --http 127.0.0.1:0 --json --timing` (the release build unless SLATE names one), once its page
    is up: (it, its page's port)."""
    rig = harness.slate_run(folder, profile, replay=recording, http="127.0.0.1:0", options=["--timing"],
                            binary_path=harness.binary("release"))
    return rig, rig.page_port()


def events(port, sink, stop):
    """Reads /events, putting (time.monotonic(), line) for each `line` event into sink."""
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        buffer = b""
        name = None
        while not stop.is_set():
            chunk = connection.recv(65536)
            if not chunk:
                return
            received = time.monotonic()
            buffer += chunk
            while b"\n" in buffer:
                raw, buffer = buffer.split(b"\n", 1)
                text = raw.decode(errors="replace").rstrip("\r")
                if text.startswith("event: "):
                    name = text[7:]
                elif text.startswith("data: ") and name == "line":
                    sink.append((received, json.loads(text[6:])))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def sse_latency():
    with tempfile.TemporaryDirectory(prefix="slate-bench-page-") as folder:
        clicks = [2.0 + 0.6 * n for n in range(40)]
        recording = devices.write_session(os.path.join(folder, "pedals.evemu"), clicks, end=clicks[-1] + 2)
        rig, port = start(folder, os.path.join(harness.ROOT, "profiles", "demo.yaml"), recording)
        received, stop = [], threading.Event()
        reader = threading.Thread(target=events, args=(port, received, stop), daemon=True)
        reader.start()
        rig.wait()
        piped = [(monotonic, line) for (_, monotonic), line in zip(rig.arrivals, rig.lines)]
        stop.set()
    # The daemon's origin on CLOCK_MONOTONIC: the earliest a line can have reached the pipe.
    origin = min(at - line["dispatched"] for at, line in piped if "dispatched" in line)
    def delays(pairs):
        return [(at - (origin + line["dispatched"])) * 1000 for at, line in pairs
                if line["type"] == "take" and line["event"] == "started" and "dispatched" in line]
    sse, pipe = delays(received), delays(piped)
    print(f"SSE: {len(sse)} started lines; from their dispatch to an /events client: median {statistics.median(sse):.2f} ms, "
          f"p99 {percentile(sse, 0.99):.2f} ms (goal p99 under 20 ms)")
    print(f"stdout pipe, the same lines in the same run: median {statistics.median(pipe):.2f} ms, "
          f"p99 {percentile(pipe, 0.99):.2f} ms; SSE/pipe median ratio {statistics.median(sse) / max(statistics.median(pipe), 1e-3):.1f}")


@contextlib.contextmanager
def recording_1080p(stop_at):
    """slate run with a 1080p30 take recording from 1 s of its replay to `stop_at`, 2 s into the take:
    (it, its page's port). Ends when slate run has."""
    with tempfile.TemporaryDirectory(prefix="slate-bench-page-") as folder:
        recording = devices.write_session(os.path.join(folder, "pedals.evemu"), [1.0, stop_at], end=stop_at + 2.0)
        rig, port = start(folder, profiles.bench_1080p(folder), recording)
        time.sleep(3.0)
        yield rig, port
        rig.wait()


def wrk_while_recording():
    with recording_1080p(15.0) as (rig, port):
        wrk = subprocess.run(
            ["wrk", "-t", "2", "-c", "50", "-d", "10s", f"http://127.0.0.1:{port}/status.json"],
            capture_output=True, text=True, check=True).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1)
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", wrk)
    stopped = rig.matching(is_take("stopped"))
    assert stopped, "the take did not stop"
    take = stopped[0]
    print(f"wrk -c 50 -d 10s /status.json while a 1080p30 take records: {rate} requests/s"
          f"{f', {errors.group(1)} not 2xx' if errors else ''}; the take: {take['frames']} frames, "
          f"{take['dropped']} dropped (goal 0)")


def cpu_seconds(pid):
    """User and system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_over(pid, seconds):
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return (cpu_seconds(pid) - before) / seconds


def watch_preview(port, stop, pictures):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(b"GET /preview.mjpg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        connection.settimeout(0.5)
        while not stop.is_set():
            try:
                chunk = connection.recv(1 << 20)
            except socket.timeout:
                continue
            if not chunk:
                return
            pictures.append(chunk.count(b"Content-Type: image/jpeg"))


def ffmpeg_per_picture(count=50):
    """CPU seconds ffmpeg takes to scale a 1080p frame to 640 px and encode it as JPEG."""
    with tempfile.TemporaryDirectory(prefix="slate-bench-page-") as folder:
        raw = os.path.join(folder, "frames.yuv")
        subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", f"testsrc2=size=1920x1080:rate=5:duration={count / 5}",
                        "-pix_fmt", "yuv420p", "-f", "rawvideo", "-y", raw], check=True)
        before = os.times()
        subprocess.run(["ffmpeg", "-v", "error", "-threads", "1", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "1920x1080",
                        "-r", "5", "-i", raw, "-vf", "scale=640:-2:flags=area", "-c:v", "mjpeg", "-q:v", "3",
                        "-f", "image2pipe", "-y", os.devnull], check=True)
        after = os.times()
    return (after.children_user - before.children_user + after.children_system - before.children_system) / count


def preview_cost():
    with recording_1080p(30.0) as (rig, port):
        idle_before = cpu_over(rig.pid, 8)
        stop, pictures = threading.Event(), []
        viewer = threading.Thread(target=watch_preview, args=(port, stop, pictures), daemon=True)
        viewer.start()
        time.sleep(1.0)
        shown = sum(pictures)
        watched = cpu_over(rig.pid, 8)
        seen = sum(pictures) - shown
        stop.set()
        viewer.join(5)
        time.sleep(1.0)
        idle_after = cpu_over(rig.pid, 8)
    reference = ffmpeg_per_picture() if shutil.which("ffmpeg") else None
    take = rig.line(is_take("stopped"))
    idle = (idle_before + idle_after) / 2
    cost = watched - idle
    rate = seen / 8
    line = (f"preview: one viewer got {rate:.1f} pictures/s (at most 5); slate run used {idle:.2f} cores recording "
            f"1080p30 without a viewer ({idle_before:.2f}, {idle_after:.2f}) and {watched:.2f} with one: the preview "
            f"costs {cost:.3f} of a core")
    if reference and rate > 0:
        line += (f", {cost / rate * 1000:.1f} ms of CPU a picture; ffmpeg makes the same picture in "
                 f"{reference * 1000:.1f} ms (ratio {cost / rate / reference:.1f})")
    print(line + f"; the take: {take['frames']} frames, {take['dropped']} dropped")


def main():
    if not shutil.which("wrk"):
        raise SystemExit("wrk is missing: scripts/install-deps wrk")
    sse_latency()
    wrk_while_recording()
    preview_cost()


if __name__ == "__main__":
    main()

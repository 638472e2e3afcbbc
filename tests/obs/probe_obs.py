#!/usr/bin/env python3
"""Whether a real OBS records when driven through obs-websocket 5: starts OBS
headless (obs_session.py), then with a small websocket client of its own
checks that a wrong password is closed with 4009, that StartRecord then
StopRecord leaves a recording that ffprobe decodes, and what OBS answers to
ToggleRecord, CreateRecordChapter and SaveReplayBuffer. Prints what it saw
and a closing 'N passed, N failed' line; exits 1 on any failure.

    python3 tests/obs/probe_obs.py [--seconds 3] [--keep]"""

import argparse
import base64
import hashlib
import json
import os
import shutil
import socket
import struct
import sys
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402
from obs_session import OBSError, OBSSession  # noqa: E402


class Closed(Exception):
    """The server closed the websocket: its close code and reason."""

    def __init__(self, code, reason):
        super().__init__(f"closed with {code} {reason!r}")
        self.code = code
        self.reason = reason


class WebSocket:
    """RFC 6455 over a plain socket, client side, text frames only."""

    def __init__(self, host, port, timeout=10):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((
            f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Protocol: obswebsocket.json\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the upgrade")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise ConnectionError(f"upgrade refused: {lines[0]}")
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        if not any(line.lower() == "sec-websocket-accept: " + accept.decode().lower() for line in lines):
            raise ConnectionError("wrong Sec-WebSocket-Accept")

    def read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection ended")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send_frame(self, opcode, payload):
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, message):
        self.send_frame(0x1, json.dumps(message).encode())

    def receive(self):
        """The next whole text message, as JSON; answers pings; raises Closed."""
        message = b""
        while True:
            first, second = self.read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self.read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self.read(8))[0]
            mask = self.read(4) if second & 0x80 else None
            payload = self.read(length)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise Closed(code, payload[2:].decode(errors="replace"))
            if opcode == 0x9:
                self.send_frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return json.loads(message)

    def close(self):
        try:
            self.send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


class OBSClient:
    """Hello, Identify (answering the challenge), Identified; then requests."""

    def __init__(self, port, password):
        self.ws = WebSocket("127.0.0.1", port)
        hello = self.ws.receive()
        assert hello["op"] == 0, hello
        self.hello = hello["d"]
        identify = {"rpcVersion": 1, "eventSubscriptions": 0}
        challenge = self.hello.get("authentication")
        if challenge:
            secret = base64.b64encode(hashlib.sha256((password + challenge["salt"]).encode()).digest()).decode()
            identify["authentication"] = base64.b64encode(
                hashlib.sha256((secret + challenge["challenge"]).encode()).digest()).decode()
        self.ws.send({"op": 1, "d": identify})
        identified = self.ws.receive()
        assert identified["op"] == 2, identified

    def request(self, request_type, data=None):
        request_id = str(uuid.uuid4())
        message = {"requestType": request_type, "requestId": request_id}
        if data is not None:
            message["requestData"] = data
        self.ws.send({"op": 6, "d": message})
        while True:
            answer = self.ws.receive()
            if answer["op"] == 7 and answer["d"]["requestId"] == request_id:
                return answer["d"]

    def close(self):
        self.ws.close()


def recording(obs):
    """GetRecordStatus's outputActive."""
    return (obs.request("GetRecordStatus").get("responseData") or {}).get("outputActive")


def settled_size(path, seconds=10):
    """The size of the file at `path` once it has not changed for half a second (0 if there is none)."""
    sizes = [-1]

    def settled():
        size = os.path.getsize(path) if path and os.path.exists(path) else 0
        last = sizes[-1]
        sizes.append(size)
        return size if size and size == last else None

    return harness.wait_for(settled, seconds, "the recording's size", every=0.5, raises=False) or max(sizes[-1], 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3, help="how long to record")
    parser.add_argument("--keep", action="store_true", help="keep the session's folder")
    args = parser.parse_args()
    check = harness.Checks()

    session = OBSSession(keep=args.keep)
    try:
        session.start()
    except OBSError as error:
        check(False, f"OBS starts under Xvfb: {error}")
        session.stop()
        print(check.summary())
        return 1
    try:
        check(True, f"OBS starts under Xvfb: {session.startup_seconds:.1f} s to its websocket at {session.url}; "
                    f"{' '.join(session.command)}")
        try:
            OBSClient(session.port, session.password + "x")
            check(False, "a wrong password is closed with 4009: it was identified")
        except Closed as closed:
            check(closed.code == 4009, f"a wrong password is closed with 4009: {closed}")
        obs = OBSClient(session.port, session.password)
        check(True, f"the right password is identified: obs-websocket {obs.hello.get('obsWebSocketVersion')}")
        version = obs.request("GetVersion")
        print(f"     GetVersion: {json.dumps(version.get('responseData', {}))[:300]}")
        started = obs.request("StartRecord")
        check(started["requestStatus"]["result"], f"StartRecord: {json.dumps(started['requestStatus'])}")
        time.sleep(args.seconds)
        status = obs.request("GetRecordStatus")
        check(status.get("responseData", {}).get("outputActive") is True,
              f"GetRecordStatus says it records: {json.dumps(status.get('responseData'))}")
        chapter = obs.request("CreateRecordChapter", {"chapterName": "Probe"})
        print(f"     CreateRecordChapter: {json.dumps(chapter['requestStatus'])}")
        stopped = obs.request("StopRecord")
        check(stopped["requestStatus"]["result"], f"StopRecord: {json.dumps(stopped.get('responseData'))}")
        path = (stopped.get("responseData") or {}).get("outputPath")
        # StopRecord answers before the muxer has finished the file: wait for the
        # output to be inactive and the file's size to settle.
        answered = time.monotonic()
        harness.wait_for(lambda: recording(obs) is False, 10, "OBS to stop recording", every=0.1, raises=False)
        print(f"     the output was inactive {time.monotonic() - answered:.2f} s after StopRecord's response")
        size = settled_size(path)
        check(size > 0, f"the recording is a file with data: {path}, {size} bytes")
        check(bool(path) and path.startswith(session.recordings + "/"),
              f"the recording is in the session's folder: {session.recordings}")
        if size:
            if shutil.which("ffprobe") is None:
                print("     ffprobe is not installed (apt-get install ffmpeg): the file was not decoded")
            else:
                reading = harness.probe(path)
                frames = harness.frames(path)
                check(frames > 0, f"ffprobe decodes the recording's video: {json.dumps(reading)}")
        # ToggleRecord's outputActive may not show the new state yet: ask GetRecordStatus.
        toggled = obs.request("ToggleRecord")
        check(toggled["requestStatus"]["result"]
              and harness.wait_for(lambda: recording(obs) is True, 10, "OBS to record", every=0.1, raises=False),
              f"ToggleRecord starts a recording: {json.dumps(toggled.get('responseData'))}")
        time.sleep(1)
        toggled = obs.request("ToggleRecord")
        check(toggled["requestStatus"]["result"]
              and harness.wait_for(lambda: recording(obs) is False, 10, "OBS to stop recording", every=0.1,
                                   raises=False),
              f"ToggleRecord stops it: {json.dumps(toggled.get('responseData'))}")
        replay = obs.request("StartReplayBuffer")
        print(f"     StartReplayBuffer: {json.dumps(replay['requestStatus'])}")
        time.sleep(2)
        before = set(session.recording_files())
        saved = obs.request("SaveReplayBuffer")
        harness.wait_for(lambda: set(session.recording_files()) - before, 10, "the replay's file", every=0.2,
                         raises=False)
        new = sorted(set(session.recording_files()) - before)
        check(saved["requestStatus"]["result"] and bool(new),
              f"SaveReplayBuffer writes a file: {json.dumps(saved['requestStatus'])} {new}")
        obs.request("StopReplayBuffer")
        obs.close()
        print(f"     recordings: {session.recording_files()}")
    except (OSError, ConnectionError, Closed, AssertionError, KeyError) as error:
        check(False, f"the websocket exchange: {error!r}")
        print(session.obs_log()[-4000:])
    finally:
        status = session.stop()
        print(f"     OBS ended with {status}" + (f"; folder kept: {session.folder}" if args.keep else ""))
    print(check.summary())
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""The rig's page spoken to byte by byte, as hostile clients do (the page's
address and token: Slate.page_url, Slate.token)."""

import re
import socket
import time
from typing import NamedTuple


class Answer(NamedTuple):
    """What one exchange got: the status (None when the page sent none), the
    bytes, whether the page closed the connection, and how long it took."""

    status: object
    raw: bytes
    closed: bool
    seconds: float

    @property
    def body(self):
        return self.raw.partition(b"\r\n\r\n")[2].decode(errors="replace")


def request(method, path, token=None, body=b"", headers=""):
    """A whole HTTP/1.1 request to 127.0.0.1 that asks the page to close after it."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{auth}{headers}"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def exchange(port, raw, timeout=3.0, address="127.0.0.1"):
    """Sends `raw` and reads until a whole response arrived (its
    Content-Length), the page closed, or `timeout` passed."""
    start = time.monotonic()
    with socket.create_connection((address, port), timeout=timeout) as connection:
        connection.sendall(raw)
        answer, closed = b"", False
        while time.monotonic() - start < timeout:
            try:
                chunk = connection.recv(65536)
            except socket.timeout:
                break
            except ConnectionError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            length = re.search(rb"(?i)content-length: (\d+)", head)
            if length and len(body) >= int(length.group(1)):
                break
    found = re.match(rb"HTTP/1\.1 (\d{3})", answer)
    return Answer(int(found.group(1)) if found else None, answer, closed, time.monotonic() - start)

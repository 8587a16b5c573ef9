"""A minimal Chrome DevTools Protocol client over a stdlib websocket: enough to evaluate script
in a headless Chromium page (click a tree row, read the DOM back)."""

from __future__ import annotations

import base64
import json
import os
import re
import select
import socket
import struct
import subprocess
import time
import urllib.request
from typing import Any
from urllib.parse import urlparse


class DevTools:
    """One headless Chromium with one page, driven over its remote-debugging websocket."""

    def __init__(self, browser: str, profile: str) -> None:
        self.process = subprocess.Popen(
            [
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert self.process.stderr is not None
        port = None
        deadline = time.monotonic() + 30
        while port is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stderr], [], [], 1)
            if ready:
                line = self.process.stderr.readline().decode(errors="replace")
                match = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
                port = int(match.group(1)) if match else None
        assert port is not None, "Chromium did not open its debugging port"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as reply:
            targets = json.load(reply)
        url = next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        self._socket = _connect(url)
        self._next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send a command and return its result (events in between are skipped)."""
        self._next_id += 1
        _send(self._socket, json.dumps({"id": self._next_id, "method": method, "params": params}))
        while True:
            message = json.loads(_receive(self._socket))
            if message.get("id") == self._next_id:
                assert "error" not in message, message
                result: dict[str, Any] = message["result"]
                return result

    def evaluate(self, expression: str) -> Any:
        """The value of a script expression in the page (promises are awaited)."""
        result = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        assert "exceptionDetails" not in result, result
        return result["result"].get("value")

    def open(self, url: str) -> None:
        """Load a page and wait until its script has marked it ready."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.evaluate("document.body && document.body.getAttribute('data-ready')") == "1":
                return
            time.sleep(0.05)
        raise AssertionError(f"the page never became ready: {url}")

    def close(self) -> None:
        """Stop the browser."""
        self._socket.close()
        self.process.kill()
        self.process.wait(timeout=10)
        if self.process.stderr is not None:
            self.process.stderr.close()


def _connect(url: str) -> socket.socket:
    parsed = urlparse(url)
    sock = socket.create_connection((parsed.hostname, parsed.port), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {parsed.path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(request.encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)
    assert b" 101 " in response.split(b"\r\n", 1)[0], response
    return sock


def _send(sock: socket.socket, text: str) -> None:
    payload = text.encode()
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x81, 0x80 | size)
    elif size < 65536:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
    sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def _exactly(sock: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        assert chunk, "the browser closed the connection"
        data += chunk
    return data


def _receive(sock: socket.socket) -> str:
    message = b""
    while True:
        first, second = _exactly(sock, 2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack("!H", _exactly(sock, 2))[0]
        elif size == 127:
            size = struct.unpack("!Q", _exactly(sock, 8))[0]
        message += _exactly(sock, size)
        if first & 0x80:  # the final fragment
            return message.decode()

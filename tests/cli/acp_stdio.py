"""A minimal Agent Client Protocol client over stdio: JSON-RPC 2.0, one message per line.

It sends requests, answers the agent's own requests (permission: the first option of the kind
the test chose, "allow" by default; anything else: method not found), and keeps every
`session/update` notification and every permission request in order.
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from queue import Empty, Queue
from typing import Any

Message = dict[str, Any]


class AcpError(Exception):
    """The agent answered a request with a JSON-RPC error."""


class AcpProcess:
    """An ACP agent started as a subprocess, driven from the test's thread."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        self.updates: list[Message] = []
        self.permission_requests: list[Message] = []
        self.permission_kind = "allow"  # answer permission requests with this kind of option
        self._inbox: Queue[Message | None] = Queue()
        self._responses: dict[int, Message] = {}
        self._next_id = 0
        self._lock = threading.Lock()
        self._stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.strip():
                self._inbox.put(json.loads(line))
        self._inbox.put(None)

    def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self._stderr.append(line)

    def _write(self, message: Message) -> None:
        assert self.process.stdin is not None
        with self._lock:
            self.process.stdin.write((json.dumps(message) + "\n").encode())
            self.process.stdin.flush()

    def send(self, method: str, params: Message) -> int:
        """Send a request; return its id (wait for the answer with `result`)."""
        self._next_id += 1
        self._write({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return self._next_id

    def notify(self, method: str, params: Message) -> None:
        """Send a notification (no answer comes)."""
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Message, timeout: float = 60) -> Any:
        """Send a request and return its result."""
        return self.result(self.send(method, params), timeout)

    def result(self, request_id: int, timeout: float = 60) -> Any:
        """Read until the answer to `request_id` arrived; return its result or raise AcpError."""
        self.read_until(lambda: request_id in self._responses, timeout)
        answer = self._responses.pop(request_id)
        if "error" in answer:
            raise AcpError(json.dumps(answer["error"]))
        return answer.get("result")

    def read_until(self, done: Callable[[], bool], timeout: float = 60) -> None:
        """Handle incoming messages until `done()` holds."""
        while not done():
            try:
                message = self._inbox.get(timeout=timeout)
            except Empty:
                raise TimeoutError(f"no message for {timeout}s; updates: {self.updates}") from None
            if message is None:
                raise EOFError(f"the agent closed stdout: {self.stderr_text()}")
            self._handle(message)

    def wait_for_update(self, kind: str, timeout: float = 60) -> Message:
        """Read until a `session/update` of this `sessionUpdate` kind arrived; return it."""
        start = len(self.updates)
        self.read_until(lambda: any(u["sessionUpdate"] == kind for u in self.updates[start:]),
                        timeout)  # fmt: skip
        return next(u for u in self.updates[start:] if u["sessionUpdate"] == kind)

    def _handle(self, message: Message) -> None:
        if "method" not in message:
            self._responses[message["id"]] = message
        elif message["method"] == "session/update":
            self.updates.append(message["params"]["update"])
        elif "id" in message:
            if message["method"] == "session/request_permission":
                self.permission_requests.append(message["params"])
            answer = _answer(message, self.permission_kind)
            self._write({"jsonrpc": "2.0", "id": message["id"], **answer})

    def stderr_text(self) -> str:
        """What the agent wrote to stderr so far."""
        return b"".join(self._stderr).decode(errors="replace")

    def close(self) -> str:
        """Close stdin, wait for the agent to exit (kill it after a while); return its stderr."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.stderr_text()


def _answer(request: Message, permission_kind: str) -> Message:
    """The client's answer to a request from the agent."""
    if request["method"] == "session/request_permission":
        options = request["params"]["options"]
        chosen = next(o for o in options if o["kind"].startswith(permission_kind))
        return {"result": {"outcome": {"outcome": "selected", "optionId": chosen["optionId"]}}}
    return {"error": {"code": -32601, "message": f"Method not found: {request['method']}"}}

"""Drive an RPC process (pi 0.73.1 or ours) through a script, reacting to what it prints.

A step sends a command (a dict, or a function of the records so far) and then reads until a
condition holds: the command's response arrived and, optionally, a given event was seen after it.
"""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, Queue
from typing import Any

Records = list[dict[str, Any]]


@dataclass
class Step:
    """Send `command`; wait for its response, call `then` (if set), then wait for `until`."""

    command: dict[str, Any] | Callable[[Records], dict[str, Any]]
    until: str | None = None
    wait_response: bool = True
    then: Callable[[], None] | None = None  # e.g. let a held tool or stream go on


class RpcProcess:
    """A `--mode rpc` process whose stdout is read on a thread, split on LF only."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        self.lines: Queue[bytes | None] = Queue()
        self.records: Records = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        buffer = b""
        while chunk := self.process.stdout.read1(65536):
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                self.lines.put(line)
        self.lines.put(None)

    def send_raw(self, text: str) -> None:
        """Write raw bytes (a line, or garbage) to stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write(text.encode())
        self.process.stdin.flush()

    def send(self, command: dict[str, Any]) -> None:
        """Write one command line."""
        self.send_raw(json.dumps(command, ensure_ascii=False) + "\n")

    def read_until(self, done: Callable[[dict[str, Any]], bool], timeout: float = 30) -> None:
        """Read records until `done(record)` is true."""
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except Empty as error:
                raise TimeoutError(f"no record in {timeout}s; last: {self.records[-3:]}") from error
            if line is None:
                raise EOFError("the process closed stdout")
            record = json.loads(line.decode())
            self.records.append(record)
            if done(record):
                return

    def run(self, steps: list[Step]) -> Records:
        """Run every step and return all records printed."""
        for index, step in enumerate(steps, 1):
            command = step.command(self.records) if callable(step.command) else step.command
            request_id = f"r{index}"
            self.send({"id": request_id, **command})
            if step.wait_response:
                self.read_until(
                    lambda r, rid=request_id: r.get("type") == "response" and r.get("id") == rid
                )
            if step.then is not None:
                step.then()
            if step.until is not None:
                self.read_until(lambda r, until=step.until: r.get("type") == until)
        return self.records

    def close(self) -> str:
        """Close stdin, wait for exit, and return stderr."""
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return self.process.stderr.read().decode()

"""A `--mode rpc` process driven from a reader thread that stamps every line as it arrives."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from queue import Empty, Queue
from typing import Any

from harness.measure import PeakProbe

# The first "type" key names the record; matching it in the line's head avoids parsing the
# (possibly large) message_update lines at all.
TYPE = re.compile(rb'"type"\s*:\s*"([a-z_]+)"')


class RpcProcess:
    """An RPC-mode agent process; records are (arrival perf_counter, type, raw line)."""

    def __init__(self, argv: list[str], cwd: Path, env: Mapping[str, str]) -> None:
        """Start the process and the thread that reads its stdout."""
        self.probe = PeakProbe()
        self.process = subprocess.Popen(
            self.probe.wrap(argv),
            start_new_session=True,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.lines: Queue[tuple[float, str, bytes] | None] = Queue()
        self.stderr = b""
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self._ids = 0
        self.cpu_s = 0.0
        """User + system CPU seconds of the whole process (start-up included), set by close()."""

    def _pump(self) -> None:
        """Split stdout on LF, stamp each line with its arrival time and record type."""
        assert self.process.stdout is not None
        buffer = b""
        while chunk := self.process.stdout.read1(1 << 20):
            now = time.perf_counter()
            buffer += chunk
            *complete, buffer = buffer.split(b"\n")
            for line in complete:
                match = TYPE.search(line, 0, 400)
                self.lines.put((now, match.group(1).decode() if match else "", line))
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        """Keep stderr from filling its pipe; keep the last 64 KiB for error reports."""
        assert self.process.stderr is not None
        while chunk := self.process.stderr.read1(65536):
            self.stderr = (self.stderr + chunk)[-65536:]

    def send(self, command: dict[str, Any]) -> tuple[str, float]:
        """Write one command (an id is added); return the id and the time it was written."""
        assert self.process.stdin is not None
        self._ids += 1
        request_id = f"bench{self._ids}"
        line = json.dumps({"id": request_id, **command}) + "\n"
        sent = time.perf_counter()
        self.process.stdin.write(line.encode())
        self.process.stdin.flush()
        return request_id, sent

    def wait_for(
        self, kind: str, request_id: str | None = None, timeout: float = 300
    ) -> tuple[float, dict[str, Any]]:
        """Read until a record of `kind` (a response: with `request_id`); return time, record."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                item = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except Empty as error:
                raise TimeoutError(f"no {kind} within {timeout}s; stderr: {self.tail()}") from error
            if item is None:
                raise EOFError(f"the RPC process closed stdout; stderr: {self.tail()}")
            arrived, found, line = item
            if found != kind:
                continue
            record: dict[str, Any] = json.loads(line)
            if request_id is not None and record.get("id") != request_id:
                continue
            if kind == "response" and not record.get("success", False):
                raise RuntimeError(f"command failed: {record}")
            return arrived, record

    def command(self, command: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        """Send a command and return its response."""
        request_id, _ = self.send(command)
        return self.wait_for("response", request_id, timeout)[1]

    def tail(self) -> str:
        """The last part of stderr, for error messages."""
        return self.stderr.decode(errors="replace")[-2000:]

    def close(self, timeout: float = 30) -> float:
        """Close stdin, wait for the process (kill it after `timeout`), return its peak RSS MiB."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                self.process.returncode = os.waitstatus_to_exitcode(status)
                self.cpu_s = usage.ru_utime + usage.ru_stime
                return self.probe.peak_mib(usage)
            if time.monotonic() > deadline:
                os.killpg(self.process.pid, signal.SIGKILL)
                deadline = float("inf")
            time.sleep(0.02)

"""Run an ACP agent between a client and itself, recording every JSON-RPC line both ways.

Usage: `python acp_tee.py LOG [--hide-resume] -- AGENT ARGS...`. The client (acpx) starts this
script as its agent command; each line the client sends and each line the agent answers is passed
on and appended to LOG as `{"from": "client" | "agent", "message": ...}`, one JSON object a line,
in the order this process saw them, between `{"from": "tee", "event": "start" | "exit"}` lines.

`--hide-resume` removes `sessionCapabilities.resume` from the agent's `initialize` answer (in
what the client gets and in the log), so that a client preferring `session/resume` (acpx) falls
back to `session/load`.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import threading
from typing import IO


class Recorder:
    """Appends each forwarded line, tagged with its sender, to the log file."""

    def __init__(self, path: str) -> None:
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - open for the run
        self._lock = threading.Lock()

    def event(self, name: str) -> None:
        """Log this process starting or ending."""
        self._write({"from": "tee", "event": name})

    def record(self, sender: str, line: bytes, hide_resume: bool = False) -> bytes:
        """Log one JSON-RPC line (a line that is not JSON is kept as text); return it as sent."""
        text = line.decode(errors="replace").strip()
        if not text:
            return line
        try:
            message: object = json.loads(text)
        except ValueError:
            message = text
        if hide_resume and _drop_resume(message):
            line = (json.dumps(message) + "\n").encode()
        self._write({"from": sender, "message": message})
        return line

    def _write(self, entry: dict[str, object]) -> None:
        with self._lock:
            self._file.write(json.dumps(entry) + "\n")
            self._file.flush()


def _drop_resume(message: object) -> bool:
    """Remove `resume` from an `initialize` answer's session capabilities; True if it was there."""
    if not isinstance(message, dict) or not isinstance(message.get("result"), dict):
        return False
    capabilities = message["result"].get("agentCapabilities", {}).get("sessionCapabilities", {})
    return capabilities.pop("resume", None) is not None


def forward(
    source: IO[bytes], target: IO[bytes], sender: str, recorder: Recorder, hide_resume: bool
) -> None:
    """Copy lines from `source` to `target`, recording each; close `target` at the end."""
    for raw in iter(source.readline, b""):
        line = recorder.record(sender, raw, hide_resume)
        try:
            target.write(line)
            target.flush()
        except (BrokenPipeError, ValueError):
            break
    with contextlib.suppress(BrokenPipeError):
        target.close()


def main(argv: list[str]) -> int:
    """Start the agent, pass its stdio through, return its exit status."""
    hide_resume = argv[1:2] == ["--hide-resume"]
    if hide_resume:
        argv = [argv[0], *argv[2:]]
    if len(argv) < 3 or argv[1] != "--":
        print("usage: acp_tee.py LOG [--hide-resume] -- AGENT [ARGS...]", file=sys.stderr)
        return 2
    recorder = Recorder(argv[0])
    recorder.event("start")
    agent = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert agent.stdin is not None and agent.stdout is not None
    # the client stops its agent with a signal: pass it on, then exit as the agent does
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, lambda signum, _frame: agent.send_signal(signum))
    inbound = (sys.stdin.buffer, agent.stdin, "client", recorder, False)
    threading.Thread(target=forward, args=inbound, daemon=True).start()
    forward(agent.stdout, sys.stdout.buffer, "agent", recorder, hide_resume)
    status = agent.wait()
    recorder.event("exit")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

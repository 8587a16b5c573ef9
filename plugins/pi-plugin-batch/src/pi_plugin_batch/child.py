"""One pi session as a child process (`pi --mode json`) that dies with its supervisor."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG = 1
STREAM_LIMIT = 64 * 1024 * 1024  # one JSON event line may carry a whole conversation


@dataclass
class ChildRun:
    """What to start: the pi arguments, where, with which environment and limits."""

    args: list[str]
    cwd: Path
    env: dict[str, str]
    stderr_path: Path
    timeout_s: float | None
    idle_timeout_s: float | None


@dataclass
class ChildOutcome:
    """What the child did, read from its JSON events."""

    exit_code: int | None = None
    killed_for: str | None = None  # "timeout" or "idle_timeout"
    messages: list[dict[str, Any]] = field(default_factory=list)  # message_end payloads
    saw_agent_end: bool = False
    wall_s: float = 0.0


def _die_with_parent() -> None:
    """In the child before exec: its own process group, and SIGKILL when the driver dies."""
    os.setpgrp()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def pi_command() -> list[str]:
    """The command that starts pi with this interpreter (the same installation)."""
    return [sys.executable, "-m", "pi_core"]


async def run_child(run: ChildRun, on_event: Callable[[dict[str, Any]], None]) -> ChildOutcome:
    """Run pi to its end, or kill its process group at the timeout or idle timeout."""
    outcome = ChildOutcome()
    started = time.monotonic()
    with run.stderr_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            *pi_command(), *run.args,
            cwd=run.cwd, env=run.env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=stderr,
            preexec_fn=_die_with_parent, limit=STREAM_LIMIT,
        )  # fmt: skip
        try:
            outcome.killed_for = await _read_events(process, run, outcome, on_event, started)
        finally:
            if process.returncode is None:
                _kill_group(process.pid)
            outcome.exit_code = await process.wait()
    outcome.wall_s = time.monotonic() - started
    return outcome


async def _read_events(
    process: asyncio.subprocess.Process,
    run: ChildRun,
    outcome: ChildOutcome,
    on_event: Callable[[dict[str, Any]], None],
    started: float,
) -> str | None:
    assert process.stdout is not None
    while True:
        wait = run.idle_timeout_s
        reason = "idle_timeout"
        if run.timeout_s is not None:
            left = run.timeout_s - (time.monotonic() - started)
            if wait is None or left < wait:
                wait, reason = max(left, 0.0), "timeout"
        try:
            line = await asyncio.wait_for(process.stdout.readline(), wait)
        except TimeoutError:
            _kill_group(process.pid)
            return reason
        if not line:
            return None
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not isinstance(event, dict):
            continue
        if event.get("type") == "message_end":
            outcome.messages.append(event.get("message") or {})
        elif event.get("type") == "agent_end":
            outcome.saw_agent_end = True
        on_event(event)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)

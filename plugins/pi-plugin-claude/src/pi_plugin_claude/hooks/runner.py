"""Running one command hook: the hook's JSON on stdin, a timeout, and what it printed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from dataclasses import dataclass
from typing import Any

from pi_plugin_claude.hooks.config import CommandHook


@dataclass(frozen=True)
class HookReply:
    """What one hook answered: its exit code, output, and the JSON object its stdout held."""

    label: str
    exit_code: int
    stdout: str = ""
    stderr: str = ""
    output: dict[str, Any] | None = None
    timed_out: bool = False


def parse_output(stdout: str) -> dict[str, Any] | None:
    """The JSON object on stdout, or None when stdout is plain text (or not an object)."""
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


async def run_command_hook(
    hook: CommandHook, payload: dict[str, Any], cwd: str, env: dict[str, str] | None = None
) -> HookReply:
    """Run `hook.command` through the shell in `cwd`, feeding `payload` as JSON on stdin."""
    environment = {**os.environ, "CLAUDE_PROJECT_DIR": cwd, "CLAUDECODE": "1", **(env or {})}
    process = await asyncio.create_subprocess_shell(
        hook.command,
        cwd=cwd,
        env=environment,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    data = json.dumps(payload).encode()
    try:
        out, err = await asyncio.wait_for(process.communicate(data), hook.timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        return HookReply(
            hook.command,
            exit_code=1,
            stderr=f"Hook command timed out after {hook.timeout:g} seconds: {hook.command}",
            timed_out=True,
        )
    stdout = out.decode("utf-8", "replace")
    return HookReply(
        hook.command,
        exit_code=process.returncode if process.returncode is not None else 1,
        stdout=stdout,
        stderr=err.decode("utf-8", "replace"),
        output=parse_output(stdout),
    )

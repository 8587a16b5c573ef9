"""Choosing the shell, and killing a command's whole process group."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal

KILL_GRACE_SECONDS = 1.0
"""How long a process group gets between SIGTERM and SIGKILL."""


def shell_command() -> list[str]:
    """Return the argv prefix that runs a command string: `[shell, "-c"]`.

    The user's `$SHELL` when it is a bash (the tool promises bash syntax), else /bin/bash,
    bash on PATH, and plain `sh` as the last resort — pi's order after `$SHELL`.
    """
    user_shell = os.environ.get("SHELL", "")
    if os.path.basename(user_shell) == "bash" and os.access(user_shell, os.X_OK):
        return [user_shell, "-c"]
    if os.access("/bin/bash", os.X_OK):
        return ["/bin/bash", "-c"]
    found = shutil.which("bash")
    if found:
        return [found, "-c"]
    return ["sh", "-c"]


def _proc_members(pgid: int) -> list[int] | None:
    """Return the live (non-zombie) pids in group `pgid` from /proc, or None without /proc."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    members: list[int] = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) >= 3 and int(fields[2]) == pgid and fields[0] != b"Z":
            members.append(int(entry))
    return members


def group_alive(pgid: int) -> bool:
    """Return whether any process of the group is still running (zombies do not count)."""
    members = _proc_members(pgid)
    if members is not None:
        return bool(members)
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _signal_group(pgid: int, sig: int) -> bool:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    return True


async def kill_process_group(pgid: int, grace: float = KILL_GRACE_SECONDS) -> None:
    """SIGTERM the whole group, wait up to `grace` seconds, then SIGKILL whatever is left."""
    if not _signal_group(pgid, signal.SIGTERM):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace
    while loop.time() < deadline:
        if not group_alive(pgid):
            return
        await asyncio.sleep(0.02)
    _signal_group(pgid, signal.SIGKILL)

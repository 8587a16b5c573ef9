"""Choosing the shell, killing a command's whole process group, and the reaper that does it
when pi itself dies."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess

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


# The reaper: a small `sh` in its own session, reading "+PGID" / "-PGID" lines from a pipe only pi
# holds. When pi dies, however it dies (kill -9 included), the pipe reaches EOF and the reaper
# kills every process group still registered: a tool's processes never outlive the agent.
_REAPER_SCRIPT = r"""
groups=" "
while IFS= read -r line; do
  case $line in
    +*) groups="$groups${line#+} " ;;
    -*) id=${line#-}
        case $groups in *" $id "*) groups="${groups%% $id *} ${groups#* $id }" ;; esac ;;
  esac
done
[ "$groups" = " " ] && exit 0
for g in $groups; do kill -TERM "-$g" 2>/dev/null; done
sleep 1
for g in $groups; do kill -KILL "-$g" 2>/dev/null; done
"""


class _Reaper:
    """Registers running process groups with the reaper process, started on first use."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._failed = False

    def _send(self, line: str) -> None:
        if self._failed:
            return
        if self._process is None or self._process.poll() is not None:
            try:
                self._process = subprocess.Popen(
                    ["/bin/sh", "-c", _REAPER_SCRIPT],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            except OSError:
                self._failed = True  # no /bin/sh (not a POSIX system): nothing to reap with
                return
        assert self._process.stdin is not None
        with contextlib.suppress(OSError):
            os.write(self._process.stdin.fileno(), line.encode())

    def watch(self, pgid: int) -> None:
        """Kill group `pgid` if pi dies before `forget(pgid)`."""
        self._send(f"+{pgid}\n")

    def forget(self, pgid: int) -> None:
        """The tool call that owns group `pgid` is over: leave the group alone."""
        self._send(f"-{pgid}\n")


reaper = _Reaper()

"""The patch a run leaves: `git diff` of the folder, untracked files included."""

from __future__ import annotations

import asyncio
from pathlib import Path


async def _git(cwd: Path, *args: str, ok: tuple[int, ...] = (0,)) -> str | None:
    process = await asyncio.create_subprocess_exec(
        "git", *args, cwd=cwd, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    out, _ = await process.communicate()
    return out.decode("utf-8", "replace") if process.returncode in ok else None


async def git_patch(cwd: Path) -> str | None:
    """The working tree's changes against HEAD (or the index in a repository without commits)
    plus each untracked file as an addition; None when `cwd` is not in a git repository."""
    try:
        if await _git(cwd, "rev-parse", "--is-inside-work-tree") is None:
            return None
    except FileNotFoundError:  # no git installed
        return None
    has_head = await _git(cwd, "rev-parse", "--verify", "--quiet", "HEAD") is not None
    parts = [await _git(cwd, "diff", "--relative", *(["HEAD"] if has_head else [])) or ""]
    untracked = await _git(cwd, "ls-files", "--others", "--exclude-standard", "-z") or ""
    for name in filter(None, untracked.split("\0")):
        # --no-index exits 1 when the files differ, which they always do here
        parts.append(
            await _git(cwd, "diff", "--no-index", "--", "/dev/null", name, ok=(0, 1)) or ""
        )
    return "".join(parts)

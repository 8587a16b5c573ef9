"""Where session files live: `<agent dir>/sessions/--<encoded cwd>--/<time>_<id>.jsonl`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pi_core.config.paths import agent_dir as default_agent_dir


def encode_cwd(cwd: str) -> str:
    """Return the folder name pi derives from a working directory."""
    trimmed = re.sub(r"^[/\\]", "", cwd)
    return "--" + re.sub(r"[/\\:]", "-", trimmed) + "--"


def sessions_root(agent: Path | None = None) -> Path:
    """Return `<agent dir>/sessions`."""
    return (agent or default_agent_dir()) / "sessions"


SESSION_DIR_MODE = 0o700
SESSION_FILE_MODE = 0o600
"""Sessions hold source code and command output: their folders and files are the owner's only."""


def make_private_dir(folder: Path) -> None:
    """Create `folder` and its missing parents with mode 0700 (existing folders are left as is)."""
    missing: list[Path] = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for path in reversed(missing):
        path.mkdir(mode=SESSION_DIR_MODE, exist_ok=True)


def default_session_dir(cwd: str, agent: Path | None = None) -> Path:
    """Return (and create, owner-only) the session folder of `cwd`."""
    folder = sessions_root(agent) / encode_cwd(cwd)
    make_private_dir(folder)
    return folder


def looks_like_session_file(path: Path) -> bool:
    """Return whether the file's first line is a session header (reads at most 512 bytes)."""
    try:
        with path.open("rb") as handle:
            first = handle.read(512).split(b"\n", 1)[0]
        header = json.loads(first)
    except (OSError, ValueError):
        return False
    return (
        isinstance(header, dict)
        and header.get("type") == "session"
        and isinstance(header.get("id"), str)
    )


def find_most_recent_session(folder: Path) -> Path | None:
    """Return the most recently modified session file in `folder`, if any."""
    try:
        candidates = [p for p in folder.iterdir() if p.suffix == ".jsonl"]
    except OSError:
        return None
    sessions = [p for p in candidates if looks_like_session_file(p)]
    if not sessions:
        return None
    return max(sessions, key=lambda p: p.stat().st_mtime)

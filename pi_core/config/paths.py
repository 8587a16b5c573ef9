"""Where pi keeps its files: the agent directory (`~/.pi/agent`) and a project's `.pi` folder."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_DIR_NAME = ".pi"
AGENT_DIR_ENV = "PI_CODING_AGENT_DIR"


def expand_user_path(path: str) -> str:
    """Expand a leading `~` the way pi does."""
    return os.path.expanduser(path.strip())


def agent_dir() -> Path:
    """Return the agent directory: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`."""
    override = os.environ.get(AGENT_DIR_ENV)
    if override:
        return Path(expand_user_path(override)).resolve()
    return Path.home() / CONFIG_DIR_NAME / "agent"


def project_dir(cwd: str | Path) -> Path:
    """Return a project's `.pi` folder."""
    return Path(cwd) / CONFIG_DIR_NAME


def resolve_path(path: str, base: str | Path) -> Path:
    """Resolve `path` (with `~`) against `base` when it is relative."""
    expanded = Path(expand_user_path(path))
    return (expanded if expanded.is_absolute() else Path(base) / expanded).resolve()

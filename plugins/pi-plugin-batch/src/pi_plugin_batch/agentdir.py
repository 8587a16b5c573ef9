"""A private agent folder per child: the user's files, with the batch's settings layered on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# pi's own retries are off in the child: the batch's error table decides what is retried.
CHILD_SETTINGS: dict[str, Any] = {"retry": {"enabled": False, "provider": {"maxRetries": 0}}}
OWN_FILES = {"settings.json", "sessions"}


def merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge `top` over `base`."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def make_agent_dir(user_dir: Path, target: Path, task_settings: dict[str, Any]) -> Path:
    """Build `target`: links to the user's agent files, and a settings.json of theirs + ours."""
    target.mkdir(parents=True, exist_ok=True)
    if user_dir.is_dir():
        for entry in user_dir.iterdir():
            link = target / entry.name
            if entry.name not in OWN_FILES and not link.exists():
                link.symlink_to(entry)
    settings: dict[str, Any] = {}
    try:
        loaded = json.loads((user_dir / "settings.json").read_text())
        settings = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError):
        pass
    settings = merge(merge(settings, task_settings), CHILD_SETTINGS)
    (target / "settings.json").write_text(json.dumps(settings, indent=2))
    return target

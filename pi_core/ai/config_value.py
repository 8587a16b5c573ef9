"""pi's value forms for keys and headers: `!command`, an environment variable name, or a literal."""

from __future__ import annotations

import os
import subprocess

_command_cache: dict[str, str | None] = {}


def resolve_config_value(value: str) -> str | None:
    """Run `!command` (stdout, cached), else use the env var of that name, else the literal."""
    if value.startswith("!"):
        if value not in _command_cache:
            _command_cache[value] = _run(value[1:])
        return _command_cache[value]
    return os.environ.get(value) or value


def _run(command: str) -> str | None:
    try:
        completed = subprocess.run(
            command,
            shell=True,
            capture_output=True,
            text=True,
            timeout=10,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if completed.returncode != 0:
        return None
    return completed.stdout.strip() or None


def resolve_headers(headers: dict[str, str] | None) -> dict[str, str]:
    """Resolve every header value; headers that resolve to nothing are dropped."""
    resolved = {}
    for name, value in (headers or {}).items():
        result = resolve_config_value(value)
        if result is not None:
            resolved[name] = result
    return resolved

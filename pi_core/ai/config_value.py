"""pi's value forms for keys and headers: `!command`, an environment variable name, or a literal."""

from __future__ import annotations

import os
import subprocess

_command_cache: dict[str, str | None] = {}
_command_failures: dict[str, str] = {}


class BadHeaderValueError(ValueError):
    """A key or header value that cannot be sent in an HTTP header (a line break, say)."""


def resolve_config_value(value: str) -> str | None:
    """Run `!command` (stdout, cached), else use the env var of that name, else the literal."""
    if value.startswith("!"):
        if value not in _command_cache:
            _command_cache[value] = _run(value[1:])
        return _command_cache[value]
    return os.environ.get(value) or value


def command_failure(value: str) -> str | None:
    """Why the `!command` value `value` gave nothing (never its output), if it failed."""
    return _command_failures.get(value)


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
    except subprocess.TimeoutExpired:
        _command_failures["!" + command] = f"the command `{command}` timed out after 10 s"
        return None
    except OSError as error:
        _command_failures["!" + command] = f"the command `{command}` could not run: {error}"
        return None
    if completed.returncode != 0:
        _command_failures["!" + command] = (
            f"the command `{command}` failed with exit code {completed.returncode}"
        )
        return None
    if not completed.stdout.strip():
        _command_failures["!" + command] = f"the command `{command}` printed nothing"
        return None
    return completed.stdout.strip()


def check_header_value(value: str, what: str) -> str:
    """Return `value` if it can go in an HTTP header, else raise BadHeaderValueError naming `what`.

    Leading and trailing white space is not the problem (HTTP strips it); a line break or another
    control character inside is, and would otherwise surface as a bare "connection error".
    """
    for char in value.strip():
        if (ord(char) < 0x20 and char != "\t") or ord(char) == 0x7F:
            kind = "a line break" if char in "\r\n" else f"the control character {char!r}"
            raise BadHeaderValueError(f"{what} contains {kind}, which cannot be sent in a header")
    return value.strip()


def resolve_headers(headers: dict[str, str] | None, owner: str = "") -> dict[str, str]:
    """Resolve every header value; headers that resolve to nothing are dropped.

    A value that cannot be sent raises BadHeaderValueError naming the header (not its value).
    """
    resolved = {}
    for name, value in (headers or {}).items():
        result = resolve_config_value(value)
        if result is not None:
            resolved[name] = check_header_value(result, f"Header {name!r}{owner}")
    return resolved

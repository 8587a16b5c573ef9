"""Whether `claudeSettings` turns the Claude settings gate on, leaves it off, or cannot be told.

pi skips a settings file it cannot use (not readable, not JSON, not an object), so a
`claudeSettings: true` written in it would be lost and the gate would silently stay off. Instead,
a broken file that mentions `claudeSettings`, or one that cannot be read at all, makes the answer
unknown, and the caller keeps the gate closed (every tool call refused) until the file is fixed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

KEY = "claudeSettings"

UNSET: Any = object()
"""The value given when no usable settings file sets `claudeSettings`."""


@dataclass(frozen=True)
class OptIn:
    """The answer: on, off, or `unknown` (why; the gate must stay closed)."""

    enabled: bool
    unknown: str | None = None


def _look(path: str) -> tuple[str, Any]:
    """The file as it is now: ("gone"), ("unreadable"), ("parsed", its value of the key) or
    ("broken", whether its bytes mention the key). pi read it at start; it may be fixed since."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return "gone", None
    except OSError:
        return "unreadable", None
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except ValueError:  # not UTF-8, or not JSON
        data = None
    if isinstance(data, dict):
        return "parsed", data.get(KEY, UNSET)
    return "broken", KEY.encode() in raw


def _closed(why: str) -> str:
    return (
        f"Claude settings: {why}, so pi cannot tell whether Claude's permission rules apply. "
        "No tool may run "
        f'until the file is fixed (valid JSON with `"{KEY}": true` or false) or removed.'
    )


def _not_boolean(value: Any) -> str:
    shown = json.dumps(value) if isinstance(value, (str, int, float, list, dict)) else repr(value)
    return _closed(f"{KEY} is {shown}, not true or false")


def _is_off(value: Any) -> bool:
    return value is UNSET or value is None or value is False


def decide_opt_in(value: Any, unusable: Iterable[tuple[str, str]]) -> OptIn:
    """Decide from the merged `claudeSettings` value and the `(path, why)` of each settings file
    pi could not use; `true` in a usable file turns the gate on whatever else is broken."""
    if value is True:
        return OptIn(True)
    for path, why in unusable:
        kind, detail = _look(path)
        if kind == "unreadable":
            return OptIn(False, _closed(f"{why} (the file cannot be read)"))
        if kind == "broken" and detail:
            return OptIn(False, _closed(f"{why} (the file sets {KEY})"))
        if kind == "parsed" and detail is True:
            return OptIn(True)
        if kind == "parsed" and not _is_off(detail):
            return OptIn(False, _not_boolean(detail))
    if _is_off(value):
        return OptIn(False)
    return OptIn(False, _not_boolean(value))

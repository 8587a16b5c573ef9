"""The first place two JSON values differ, as a JSON path and both values."""

from __future__ import annotations

import json
import re
from typing import Any

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ABSENT = object()


def first_difference(recorded: dict[str, Any], sent: dict[str, Any]) -> str | None:
    """Describe where `sent` first departs from `recorded` (method, path, then body), or None."""
    for part, label in (("method", "the method"), ("path", "the URL path")):
        if recorded.get(part) != sent.get(part):
            return f"{label}: recorded {_show(recorded.get(part))}, sent {_show(sent.get(part))}"
    return _walk(recorded.get("body"), sent.get("body"), "$")


def _walk(recorded: Any, sent: Any, path: str) -> str | None:
    if isinstance(recorded, dict) and isinstance(sent, dict):
        for key in [*recorded, *(k for k in sent if k not in recorded)]:
            found = _walk(recorded.get(key, ABSENT), sent.get(key, ABSENT), _child(path, key))
            if found is not None:
                return found
        return None
    if isinstance(recorded, list) and isinstance(sent, list):
        for index in range(max(len(recorded), len(sent))):
            found = _walk(
                recorded[index] if index < len(recorded) else ABSENT,
                sent[index] if index < len(sent) else ABSENT,
                f"{path}[{index}]",
            )
            if found is not None:
                return found
        return None
    if recorded is sent or (
        type(recorded) is type(sent) and recorded == sent  # 1 == 1.0 == True would hide a change
    ):
        return None
    return f"{path}: recorded {_show(recorded)}, sent {_show(sent)}"


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if _PLAIN_KEY.match(key) else f"{path}[{json.dumps(key)}]"


def _show(value: Any, limit: int = 80) -> str:
    if value is ABSENT:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"

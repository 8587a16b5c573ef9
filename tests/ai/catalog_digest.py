"""A model's facts as one canonical JSON text and its digest, the same for pi's and ours."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _normal(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _normal(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_normal(item) for item in value]
    return value


def canonical(model: dict[str, Any]) -> str:
    """Sorted keys, no spaces, 4.0 written as 4 (JavaScript has one number type)."""
    return json.dumps(_normal(model), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(model: dict[str, Any]) -> str:
    """The first 16 hex digits of the canonical text's SHA-256."""
    return hashlib.sha256(canonical(model).encode()).hexdigest()[:16]

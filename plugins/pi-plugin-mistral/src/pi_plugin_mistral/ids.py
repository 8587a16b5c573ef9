"""Mistral's tool-call ids: exactly nine letters or digits. Another provider's ids are renamed as
pi renames them (its `shortHash`), so a conversation can move to Mistral mid-way."""

from __future__ import annotations

import re

from pi_core.messages import AssistantMessage
from pi_core.providers import Model

ID_LENGTH = 9
_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]")
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_MASK = 0xFFFFFFFF


def _imul(a: int, b: int) -> int:
    """JavaScript's `Math.imul`, on unsigned 32-bit values."""
    return (a * b) & _MASK


def _base36(value: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _DIGITS[digit] + digits
        if not value:
            return digits


def short_hash(text: str) -> str:
    """pi-ai's `shortHash`: two 32-bit mixes of the UTF-16 code units, in base 36."""
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    units = text.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(units), 2):
        unit = units[i] | units[i + 1] << 8
        h1 = _imul(h1 ^ unit, 2654435761)
        h2 = _imul(h2 ^ unit, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507) ^ _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507) ^ _imul(h1 ^ (h1 >> 13), 3266489909)
    return _base36(h2) + _base36(h1)


def derive_id(call_id: str, attempt: int = 0) -> str:
    """The id pi gives `call_id` on Mistral: its letters and digits when there are exactly nine,
    else nine characters of a hash (of `id:attempt` after a collision)."""
    normalized = _NOT_ALNUM.sub("", call_id)
    if attempt == 0 and len(normalized) == ID_LENGTH:
        return normalized
    seed = normalized or call_id
    if attempt:
        seed = f"{seed}:{attempt}"
    return _NOT_ALNUM.sub("", short_hash(seed))[:ID_LENGTH]


_GIVEN: dict[str, str] = {}
_OWNER: dict[str, str] = {}


def normalize_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    """Another model's tool-call id as Mistral takes it; two ids never share a new id (pi keeps
    that per request, this for the process, so a renamed id stays the same on every request)."""
    given = _GIVEN.get(call_id)
    if given is not None:
        return given
    attempt = 0
    while True:
        candidate = derive_id(call_id, attempt)
        owner = _OWNER.get(candidate)
        if owner is None or owner == call_id:
            _GIVEN[call_id] = candidate
            _OWNER[candidate] = call_id
            return candidate
        attempt += 1

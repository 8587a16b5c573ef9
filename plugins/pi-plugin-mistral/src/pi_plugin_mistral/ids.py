"""Mistral's tool-call ids: exactly nine letters or digits. Another provider's ids are renamed as
pi renames them (its `shortHash`), so a conversation can move to Mistral mid-way."""

from __future__ import annotations

import re

from pi_core.messages import AssistantMessage
from pi_core.providers import Model, short_hash

ID_LENGTH = 9
_NOT_ALNUM = re.compile(r"[^a-zA-Z0-9]")


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

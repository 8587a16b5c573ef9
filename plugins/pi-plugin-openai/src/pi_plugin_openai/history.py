"""The Responses API's rule for other models' tool-call ids (`call_id|item_id`), on top of the
core's message transform."""

from __future__ import annotations

import re

from pi_core.messages import AssistantMessage
from pi_core.providers import LLMMessage, Model, transform_messages

OPENAI_ITEM_ID_PROVIDERS = {"openai", "openai-codex", "opencode", "azure-openai-responses"}
"""Providers whose tool-call ids carry a Responses item id after a `|` worth keeping."""


_MASK = 0xFFFFFFFF
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


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
    """Return pi's short stable hash of `text` (for ids that must stay under 64 characters): the
    same 53-bit mix over UTF-16 code units, in base 36, so ids match the ones pi sends."""
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    units = text.encode("utf-16-le")
    for index in range(0, len(units), 2):
        unit = units[index] | units[index + 1] << 8
        h1 = _imul(h1 ^ unit, 2654435761)
        h2 = _imul(h2 ^ unit, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507) ^ _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507) ^ _imul(h1 ^ (h1 >> 13), 3266489909)
    return _base36(h2) + _base36(h1)


def _id_part(part: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_-]", "_", part)[:64].rstrip("_")


def _normalize_call_id(call_id: str, model: Model, source: AssistantMessage) -> str:
    if model.provider not in OPENAI_ITEM_ID_PROVIDERS or "|" not in call_id:
        return _id_part(call_id)
    call, item = call_id.split("|", 1)
    foreign = (source.provider, source.api) != (model.provider, model.api)
    item = f"fc_{short_hash(item)}" if foreign else _id_part(item)
    if not item.startswith("fc_"):
        item = _id_part(f"fc_{item}")
    return f"{_id_part(call)}|{item}"


def prepare_messages(messages: list[LLMMessage], model: Model) -> list[LLMMessage]:
    """The messages to send: transformed for `model` with Responses ids, every call answered."""
    return transform_messages(messages, model, _normalize_call_id)

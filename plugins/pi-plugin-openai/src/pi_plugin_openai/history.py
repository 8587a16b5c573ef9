"""The Responses API's rule for other models' tool-call ids (`call_id|item_id`), on top of the
core's message transform."""

from __future__ import annotations

import re

from pi_core.messages import AssistantMessage
from pi_core.providers import LLMMessage, Model, short_hash, transform_messages

OPENAI_ITEM_ID_PROVIDERS = {"openai", "openai-codex", "opencode", "azure-openai-responses"}
"""Providers whose tool-call ids carry a Responses item id after a `|` worth keeping."""


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

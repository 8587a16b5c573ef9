"""What the LLM sees of a session: the path from the leaf to the root, with compaction applied."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field, ValidationError

from pi_core.messages.agent import (
    AgentMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    parse_agent_message,
)
from pi_core.messages.base import WireModel
from pi_core.session.ids import iso_to_ms

RawEntry = dict[str, Any]
MessageParser = Callable[[RawEntry], AgentMessage]


class ModelRef(WireModel):
    """The provider and model id a session was last using."""

    provider: str
    model_id: str


class SessionContext(WireModel):
    """The messages for the LLM, and the model and thinking level in effect at the leaf."""

    messages: list[AgentMessage] = Field(default_factory=list)
    thinking_level: str = "off"
    model: ModelRef | None = None
    warnings: list[str] = Field(default_factory=list, exclude=True)


def path_to_root(leaf: RawEntry | None, by_id: Mapping[str, RawEntry]) -> list[RawEntry]:
    """Return the entries from the root down to `leaf` (inclusive)."""
    path: list[RawEntry] = []
    seen: set[str] = set()
    current = leaf
    while current is not None and current.get("id") not in seen:
        seen.add(current.get("id", ""))
        path.append(current)
        parent = current.get("parentId")
        current = by_id.get(parent) if parent else None
    path.reverse()
    return path


def _model_ref(entry: RawEntry) -> ModelRef:
    """The model a `model_change` entry or an assistant message's entry names."""
    if entry.get("type") == "model_change":
        return ModelRef(provider=entry["provider"], model_id=entry["modelId"])
    message = entry["message"]
    return ModelRef(provider=message.get("provider", ""), model_id=message.get("model", ""))


def _default_parser(entry: RawEntry) -> AgentMessage:
    return parse_agent_message(entry["message"])


def build_session_context(
    entries: list[RawEntry],
    leaf_id: str | None,
    by_id: Mapping[str, RawEntry] | None = None,
    *,
    leaf_unset: bool = False,
    parse_message: MessageParser = _default_parser,
) -> SessionContext:
    """Build the LLM context at `leaf_id` (the last entry when `leaf_unset`; nothing when None)."""
    if by_id is None:
        by_id = {e["id"]: e for e in entries if "id" in e}
    if leaf_id is None and not leaf_unset:
        return SessionContext()
    leaf = by_id.get(leaf_id) if leaf_id else None
    if leaf is None:
        leaf = entries[-1] if entries else None
    if leaf is None:
        return SessionContext()
    path = path_to_root(leaf, by_id)

    context = SessionContext()
    compaction: RawEntry | None = None
    model_entry: RawEntry | None = None  # the last entry that sets the model
    for entry in path:
        kind = entry.get("type")
        if kind == "thinking_level_change":
            context.thinking_level = entry.get("thinkingLevel", context.thinking_level)
        elif kind == "model_change" or (
            kind == "message" and entry.get("message", {}).get("role") == "assistant"
        ):
            model_entry = entry
        elif kind == "compaction":
            compaction = entry
    if model_entry is not None:
        context.model = _model_ref(model_entry)

    def add(entry: RawEntry) -> None:
        kind = entry.get("type")
        try:
            if kind == "message":
                context.messages.append(parse_message(entry))
            elif kind == "custom_message":
                context.messages.append(
                    CustomMessage(
                        custom_type=entry["customType"],
                        content=entry["content"],
                        display=entry.get("display", True),
                        details=entry.get("details"),
                        timestamp=iso_to_ms(entry.get("timestamp", "")),
                    )
                )
            elif kind == "branch_summary" and entry.get("summary"):
                context.messages.append(
                    BranchSummaryMessage(
                        summary=entry["summary"],
                        from_id=entry.get("fromId", ""),
                        timestamp=iso_to_ms(entry.get("timestamp", "")),
                    )
                )
        except (ValidationError, KeyError, TypeError) as error:
            context.warnings.append(f"entry {entry.get('id')}: skipped unreadable {kind}: {error}")

    if compaction is None:
        for entry in path:
            add(entry)
        return context

    context.messages.append(
        CompactionSummaryMessage(
            summary=compaction.get("summary", ""),
            tokens_before=compaction.get("tokensBefore", 0),
            timestamp=iso_to_ms(compaction.get("timestamp", "")),
        )
    )
    index = next(i for i, e in enumerate(path) if e is compaction)
    keeping = False
    for entry in path[:index]:
        if entry.get("id") == compaction.get("firstKeptEntryId"):
            keeping = True
        if keeping:
            add(entry)
    for entry in path[index + 1 :]:
        add(entry)
    return context

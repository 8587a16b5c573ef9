"""What the LLM sees of a session: the path from the leaf to the root, with compaction applied."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from pi_core.messages.agent import (
    AgentMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
    parse_agent_message,
)
from pi_core.messages.base import WireModel
from pi_core.messages.shared_fields import FieldsSetPool, share_fields_sets
from pi_core.session.ids import iso_to_ms

RawEntry = dict[str, Any]
MessagesParser = Callable[[list[RawEntry]], list["AgentMessage | str"]]
"""The message of each `message` entry, in order; an unreadable one as the reason (a string)."""

_messages_adapter: TypeAdapter[list[AgentMessage]] = TypeAdapter(
    list[AgentMessage], config=ConfigDict(defer_build=True)
)


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


def copy_context(context: SessionContext) -> SessionContext:
    """A copy of `context` with lists of its own (the messages themselves are shared: finished
    messages are never edited), made without validating anything again."""
    return SessionContext.model_construct(
        messages=list(context.messages),
        thinking_level=context.thinking_level,
        model=context.model.model_copy() if context.model is not None else None,
        warnings=list(context.warnings),
    )


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


_SLICE = 128  # messages validated per pydantic-core call


def parse_messages(entries: list[RawEntry]) -> list[AgentMessage | str]:
    """Validate the message of each entry, in a few calls (128 a call) when every one is readable.

    One pydantic-core call for many messages saves the Python round trip per message; only
    when some message is unreadable are they validated one by one, to find which (its error
    text stands in its place).
    """
    pool = FieldsSetPool()
    messages: list[AgentMessage | str] = []
    try:
        # in slices, each sharing its fields-sets before the next is built: the models' own
        # sets are never all alive at once
        for start in range(0, len(entries), _SLICE):
            part = _messages_adapter.validate_python(
                [entry["message"] for entry in entries[start : start + _SLICE]]
            )
            share_fields_sets(part, pool)
            messages += part
    except (ValidationError, KeyError, TypeError):
        pass
    else:
        return messages
    results: list[AgentMessage | str] = []
    for entry in entries:
        try:
            results.append(parse_agent_message(entry["message"]))
        except (ValidationError, KeyError, TypeError) as error:
            results.append(str(error))
    share_fields_sets(results, pool)
    return results


def build_session_context(
    entries: list[RawEntry],
    leaf_id: str | None,
    by_id: Mapping[str, RawEntry] | None = None,
    *,
    leaf_unset: bool = False,
    parse_messages: MessagesParser = parse_messages,
    path: list[RawEntry] | None = None,
) -> SessionContext:
    """Build the LLM context at `leaf_id` (the last entry when `leaf_unset`; nothing when None).

    `path`, when the caller already knows it, is the branch from the root to the leaf.
    """
    if by_id is None:
        by_id = {e["id"]: e for e in entries if "id" in e}
    if leaf_id is None and not leaf_unset:
        return SessionContext()
    if path is None:
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

    if compaction is None:
        kept = path
    else:
        context.messages.append(
            CompactionSummaryMessage(
                summary=compaction.get("summary", ""),
                tokens_before=compaction.get("tokensBefore", 0),
                timestamp=iso_to_ms(compaction.get("timestamp", "")),
            )
        )
        index = next(i for i, e in enumerate(path) if e is compaction)
        first_kept = compaction.get("firstKeptEntryId")
        start = next((i for i, e in enumerate(path[:index]) if e.get("id") == first_kept), index)
        kept = path[start:index] + path[index + 1 :]
    _add_messages(context, kept, parse_messages)
    return context


def _add_messages(
    context: SessionContext, entries: list[RawEntry], parse_messages: MessagesParser
) -> None:
    """Append the context messages of these entries, skipping (with a warning) unreadable ones."""
    message_entries = [entry for entry in entries if entry.get("type") == "message"]
    all_parsed = parse_messages(message_entries)
    messages = context.messages
    if len(message_entries) == len(entries) and str not in map(type, all_parsed):
        messages.extend(all_parsed)  # type: ignore[arg-type]  # all of them messages
        return
    parsed = iter(all_parsed)
    for entry in entries:
        kind = entry.get("type")
        try:
            if kind == "message":
                message = next(parsed)
                if isinstance(message, str):
                    raise ValueError(message)
                messages.append(message)
            elif kind == "custom_message":
                messages.append(
                    CustomMessage(
                        custom_type=entry["customType"],
                        content=entry["content"],
                        display=entry.get("display", True),
                        details=entry.get("details"),
                        timestamp=iso_to_ms(entry.get("timestamp", "")),
                    )
                )
            elif kind == "branch_summary" and entry.get("summary"):
                messages.append(
                    BranchSummaryMessage(
                        summary=entry["summary"],
                        from_id=entry.get("fromId", ""),
                        timestamp=iso_to_ms(entry.get("timestamp", "")),
                    )
                )
        except (ValueError, KeyError, TypeError) as error:
            context.warnings.append(f"entry {entry.get('id')}: skipped unreadable {kind}: {error}")

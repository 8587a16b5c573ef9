"""What compaction prepares and what a compaction plugin returns."""

from typing import Any

from pydantic import Field

from pi_core.messages.agent import AgentMessage
from pi_core.messages.base import WireModel
from pi_core.model_defaults import empty_list


class CompactionSettings(WireModel):
    """When to compact and how much recent context to keep."""

    enabled: bool = True
    reserve_tokens: int = 16_384
    keep_recent_tokens: int = 20_000


class FileOperations(WireModel):
    """Paths the summarized history read, wrote and edited."""

    read: set[str] = Field(default_factory=set)
    written: set[str] = Field(default_factory=set)
    edited: set[str] = Field(default_factory=set)


class CompactionPreparation(WireModel):
    """Everything a summarizer needs: what to summarize, what to keep, the previous summary."""

    first_kept_entry_id: str
    messages_to_summarize: list[AgentMessage] = Field(default_factory=empty_list)
    turn_prefix_messages: list[AgentMessage] = Field(default_factory=empty_list)
    is_split_turn: bool = False
    tokens_before: int = 0
    previous_summary: str | None = None
    file_ops: FileOperations = Field(default_factory=FileOperations)
    settings: CompactionSettings = Field(default_factory=CompactionSettings)


class CompactionResult(WireModel):
    """A finished compaction: the summary and where kept history starts."""

    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: Any = None

"""Session file lines: the header and the nine entry types of pi's JSONL v3 format."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from pi_core.messages.agent import AgentMessage
from pi_core.messages.base import WireModel
from pi_core.messages.content import UserContent

CURRENT_SESSION_VERSION = 3


class SessionHeader(WireModel):
    """The first line of a session file."""

    type: Literal["session"] = "session"
    version: int | None = CURRENT_SESSION_VERSION
    id: str
    timestamp: str
    cwd: str = ""
    parent_session: str | None = None


class _Entry(WireModel):
    id: str
    parent_id: str | None
    timestamp: str


class SessionMessageEntry(_Entry):
    """A message in the conversation."""

    type: Literal["message"] = "message"
    message: AgentMessage


class ThinkingLevelChangeEntry(_Entry):
    """The thinking level changed."""

    type: Literal["thinking_level_change"] = "thinking_level_change"
    thinking_level: str


class ModelChangeEntry(_Entry):
    """The model changed."""

    type: Literal["model_change"] = "model_change"
    provider: str
    model_id: str


class CompactionEntry(_Entry):
    """History before `first_kept_entry_id` is replaced by `summary` in the context."""

    type: Literal["compaction"] = "compaction"
    summary: str
    first_kept_entry_id: str
    tokens_before: int
    details: Any = None
    from_hook: bool | None = None


class BranchSummaryEntry(_Entry):
    """A summary of the branch left behind when navigating the tree."""

    type: Literal["branch_summary"] = "branch_summary"
    from_id: str
    summary: str
    details: Any = None
    from_hook: bool | None = None


class CustomEntry(_Entry):
    """Plugin state kept in the session; never part of the LLM context."""

    type: Literal["custom"] = "custom"
    custom_type: str
    data: Any = None


class CustomMessageEntry(_Entry):
    """A plugin message that does go into the LLM context."""

    type: Literal["custom_message"] = "custom_message"
    custom_type: str
    content: str | list[UserContent]
    details: Any = None
    display: bool = True


class LabelEntry(_Entry):
    """A user bookmark on another entry; `label=None` clears it."""

    type: Literal["label"] = "label"
    target_id: str
    label: str | None = None


class SessionInfoEntry(_Entry):
    """Session metadata, such as its display name."""

    type: Literal["session_info"] = "session_info"
    name: str | None = None


SessionEntry = Annotated[
    SessionMessageEntry
    | ThinkingLevelChangeEntry
    | ModelChangeEntry
    | CompactionEntry
    | BranchSummaryEntry
    | CustomEntry
    | CustomMessageEntry
    | LabelEntry
    | SessionInfoEntry,
    Field(discriminator="type"),
]
"""Any entry of the session tree."""

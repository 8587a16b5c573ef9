"""A builder of session branches with exact token sizes (4 characters = 1 token)."""

from __future__ import annotations

from typing import Any

import pytest

from pi_core.compaction import estimate_tokens
from pi_core.messages import (
    AssistantMessage,
    BashExecutionMessage,
    ImageContent,
    StopReason,
    TextContent,
    ToolCall,
    ToolResultMessage,
    Usage,
    UserMessage,
)
from pi_core.messages.agent import AgentMessage
from pi_core.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomMessageEntry,
    ModelChangeEntry,
    SessionEntry,
    SessionMessageEntry,
)

TIMESTAMP = "2025-01-01T00:00:00.000Z"


def text_of(tokens: int) -> str:
    """Text that estimates to exactly `tokens` tokens."""
    return "abcd" * tokens


class Chain:
    """A linear branch of typed entries with ids e0, e1, …; each method appends one entry."""

    def __init__(self) -> None:
        self.entries: list[SessionEntry] = []

    def _base(self) -> dict[str, Any]:
        parent = self.entries[-1].id if self.entries else None
        return {"id": f"e{len(self.entries)}", "parent_id": parent, "timestamp": TIMESTAMP}

    def add(self, entry: SessionEntry) -> str:
        self.entries.append(entry)
        return entry.id

    def message(self, message: AgentMessage) -> str:
        return self.add(SessionMessageEntry(**self._base(), message=message))

    def user(self, tokens: int = 10) -> str:
        return self.message(UserMessage(content=text_of(tokens)))

    def assistant(
        self,
        tokens: int = 10,
        tools: list[tuple[str, dict[str, Any]]] | None = None,
        total: int | None = None,
        stop_reason: StopReason = "stop",
    ) -> str:
        content: list[Any] = [TextContent(text=text_of(tokens))] if tokens else []
        for index, (name, args) in enumerate(tools or []):
            content.append(
                ToolCall(id=f"call{len(self.entries)}_{index}", name=name, arguments=args)
            )
        return self.message(
            AssistantMessage(
                content=content,
                usage=Usage(total_tokens=total),
                stop_reason="toolUse" if tools and stop_reason == "stop" else stop_reason,
            )
        )

    def tool_result(self, tokens: int = 10, images: int = 0) -> str:
        content: list[Any] = [TextContent(text=text_of(tokens))]
        content += [ImageContent(data="AAAA", mime_type="image/png")] * images
        return self.message(ToolResultMessage(tool_call_id="c", tool_name="read", content=content))

    def bash(self, tokens: int = 10) -> str:
        return self.message(BashExecutionMessage(command="", output=text_of(tokens)))

    def custom_message(self, tokens: int = 10) -> str:
        return self.add(
            CustomMessageEntry(**self._base(), custom_type="note", content=text_of(tokens))
        )

    def branch_summary(self, tokens: int = 10, details: Any = None) -> str:
        return self.add(
            BranchSummaryEntry(
                **self._base(), from_id="e0", summary=text_of(tokens), details=details
            )
        )

    def model_change(self) -> str:
        return self.add(ModelChangeEntry(**self._base(), provider="p", model_id="m"))

    def compaction(
        self,
        first_kept: str,
        summary: str = "earlier work",
        details: Any = None,
        from_hook: bool | None = None,
    ) -> str:
        return self.add(
            CompactionEntry(
                **self._base(),
                summary=summary,
                first_kept_entry_id=first_kept,
                tokens_before=1234,
                details=details,
                from_hook=from_hook,
            )
        )

    def tokens(self, start: int, end: int | None = None) -> int:
        """The estimated tokens of the messages among entries[start:end]."""
        return sum(
            estimate_tokens(e.message)
            for e in self.entries[start:end]
            if isinstance(e, SessionMessageEntry)
        )


@pytest.fixture
def chain() -> Chain:
    """An empty branch to build on."""
    return Chain()

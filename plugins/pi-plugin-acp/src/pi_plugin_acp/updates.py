"""Translate one pi session's events into ACP `session/update` payloads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp import (
    start_tool_call,
    text_block,
    tool_content,
    tool_diff_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_tool_call,
)
from acp.schema import (
    AgentMessageChunk,
    AgentThoughtChunk,
    ToolCallProgress,
    ToolCallStart,
    UsageUpdate,
)

from pi_core.messages import TextContent
from pi_plugin_acp.mapping import tool_kind, tool_locations, tool_title
from pi_plugin_acp.progress import EVENTS as PROGRESS_EVENTS
from pi_plugin_acp.progress import ProgressTranslator

Update = AgentMessageChunk | AgentThoughtChunk | ToolCallStart | ToolCallProgress | UsageUpdate

EDITING_TOOLS = {"write", "edit"}


class EventTranslator:
    """Maps pi events (message deltas, tool execution) to ACP updates, remembering each
    edited file's text before the tool ran so that its result can be shown as a diff."""

    def __init__(self, cwd: str, *, disk_diffs: bool = True) -> None:
        self._cwd = cwd
        # with the editor's buffers as back-end the disk does not show the change
        self._disk_diffs = disk_diffs
        self._before: dict[str, tuple[str, str | None]] = {}
        self._progress = ProgressTranslator()

    def translate(self, event: Any) -> list[Update]:
        """The ACP updates for one pi event (none for events ACP has no word for)."""
        kind = getattr(event, "type", None)
        if kind == "message_update":
            return self._delta(event.assistant_message_event)
        if kind == "tool_execution_start":
            return [self.announce(event.tool_call_id, event.tool_name, event.args)]
        if kind == "tool_execution_end":
            return [
                self._finished(event.tool_call_id, event.tool_name, event.result, event.is_error)
            ]
        if kind in PROGRESS_EVENTS:
            return list(self._progress.translate(event))
        return []

    def announce(self, call_id: str, name: str, args: Any) -> ToolCallStart:
        """The `tool_call` (pending) for a tool about to be gated and run."""
        locations = tool_locations(args, self._cwd)
        if self._disk_diffs and name in EDITING_TOOLS and locations:
            self._before[call_id] = (locations[0].path, _read(locations[0].path))
        return start_tool_call(
            call_id,
            tool_title(name, args),
            kind=tool_kind(name),
            status="pending",
            locations=locations,
            raw_input=args,
        )

    def _delta(self, event: Any) -> list[Update]:
        if event.type == "text_delta" and event.delta:
            return [update_agent_message_text(event.delta)]
        if event.type == "thinking_delta" and event.delta:
            return [update_agent_thought_text(event.delta)]
        return []

    def _finished(self, call_id: str, name: str, result: Any, is_error: bool) -> ToolCallProgress:
        text = "\n".join(
            block.text
            for block in getattr(result, "content", None) or []
            if isinstance(block, TextContent)
        )
        content: list[Any] = [tool_content(text_block(text))] if text else []
        before = self._before.pop(call_id, None)
        if before is not None and not is_error:
            path, old = before
            new = _read(path)
            if new is not None:
                content = [tool_diff_content(path, new, old)]
        return update_tool_call(
            call_id,
            status="failed" if is_error else "completed",
            content=content,
            raw_output={"text": text, "isError": is_error},
        )


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None

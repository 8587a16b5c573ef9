"""Compaction and provider retries as ACP tool calls (kind `other`), which editors show inline."""

from __future__ import annotations

from typing import Any

from acp import start_tool_call, text_block, tool_content, update_tool_call
from acp.schema import ToolCallProgress, ToolCallStart

EVENTS = {"compaction_start", "compaction_end", "auto_retry_start", "auto_retry_end"}

_REASONS = {
    "manual": "by request",
    "threshold": "the context is nearly full",
    "overflow": "the context overflowed",
}


class ProgressTranslator:
    """Maps pi's compaction and retry events to a `tool_call` and its `tool_call_update`s."""

    def __init__(self) -> None:
        self._count = 0
        self._compaction: str | None = None
        self._retry: str | None = None

    def translate(self, event: Any) -> list[ToolCallStart | ToolCallProgress]:
        """The updates for one of `EVENTS` (none for any other event)."""
        kind = getattr(event, "type", None)
        if kind == "compaction_start":
            self._compaction = self._next_id("compaction")
            why = _REASONS.get(event.reason, event.reason)
            return [_start(self._compaction, f"Compacting the conversation ({why})")]
        if kind == "compaction_end" and self._compaction is not None:
            call_id, self._compaction = self._compaction, None
            failed = bool(event.aborted or event.error_message)
            text = event.error_message or ("Compaction cancelled" if event.aborted else "")
            summary = getattr(event.result, "summary", None) if event.result else None
            return [_finish(call_id, failed, text or summary or "Compacted")]
        if kind == "auto_retry_start":
            title = (
                f"Retrying the model request ({event.attempt}/{event.max_attempts}) in "
                f"{event.delay_ms / 1000:g}s: {event.error_message}"
            )
            if self._retry is None:
                self._retry = self._next_id("retry")
                return [_start(self._retry, title)]
            return [update_tool_call(self._retry, title=title, status="in_progress")]
        if kind == "auto_retry_end" and self._retry is not None:
            call_id, self._retry = self._retry, None
            if event.success:
                return [_finish(call_id, False, f"Succeeded on attempt {event.attempt}")]
            return [_finish(call_id, True, event.final_error or "Retrying stopped")]
        return []

    def _next_id(self, what: str) -> str:
        self._count += 1
        return f"pi-{what}-{self._count}"


def _start(call_id: str, title: str) -> ToolCallStart:
    return start_tool_call(call_id, title, kind="other", status="in_progress")


def _finish(call_id: str, failed: bool, text: str) -> ToolCallProgress:
    return update_tool_call(
        call_id,
        status="failed" if failed else "completed",
        content=[tool_content(text_block(text))],
    )

"""Session statistics and context usage, with pi's field names."""

from __future__ import annotations

from typing import Any, Protocol

from pi_core.ai.model import Model
from pi_core.compaction.tokens import (
    calculate_context_tokens,
    estimate_context_tokens,
    get_latest_compaction_entry,
)
from pi_core.messages.agent import AgentMessage
from pi_core.messages.content import ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage
from pi_core.session.entries import SessionMessageEntry
from pi_core.session.manager import SessionManager


class StatsSource(Protocol):
    """What the numbers are read from (an AgentSession is one)."""

    @property
    def messages(self) -> list[AgentMessage]: ...
    @property
    def model(self) -> Model | None: ...
    @property
    def session_manager(self) -> SessionManager: ...
    @property
    def session_file(self) -> str | None: ...
    @property
    def session_id(self) -> str: ...


def session_stats(session: StatsSource) -> dict[str, Any]:
    """Return counts, token totals and cost over the transcript, and the context usage."""
    messages = session.messages
    assistants = [m for m in messages if isinstance(m, AssistantMessage)]
    tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    cost = 0.0
    for message in assistants:
        usage = message.usage
        tokens["input"] += usage.input
        tokens["output"] += usage.output
        tokens["cacheRead"] += usage.cache_read
        tokens["cacheWrite"] += usage.cache_write
        cost += float(usage.cost.total)
    return {
        "sessionFile": session.session_file,
        "sessionId": session.session_id,
        "userMessages": sum(isinstance(m, UserMessage) for m in messages),
        "assistantMessages": len(assistants),
        "toolCalls": sum(isinstance(block, ToolCall) for m in assistants for block in m.content),
        "toolResults": sum(isinstance(m, ToolResultMessage) for m in messages),
        "totalMessages": len(messages),
        "tokens": {**tokens, "total": sum(tokens.values())},
        "cost": cost,
        "contextUsage": context_usage(session),
    }


def all_branches_usage(manager: SessionManager) -> tuple[dict[str, int], float]:
    """Sum the tokens and cost of every assistant message in the session file, every branch
    (what pi's footer shows; `/session` counts the current branch only)."""
    tokens = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0}
    cost = 0.0
    for entry in manager.get_entries():
        if isinstance(entry, SessionMessageEntry) and isinstance(entry.message, AssistantMessage):
            usage = entry.message.usage
            tokens["input"] += usage.input
            tokens["output"] += usage.output
            tokens["cacheRead"] += usage.cache_read
            tokens["cacheWrite"] += usage.cache_write
            cost += float(usage.cost.total)
    return tokens, cost


def context_usage(session: StatsSource) -> dict[str, Any] | None:
    """Return the context's estimated size against the model's window (unknown after compaction
    until the next response)."""
    model = session.model
    if model is None or not model.context_window:
        return None
    window = model.context_window
    branch = session.session_manager.get_branch()
    latest = get_latest_compaction_entry(branch)
    if latest is not None:
        after = branch[branch.index(latest) + 1 :]
        fresh = False
        for entry in reversed(after):
            if (
                isinstance(entry, SessionMessageEntry)
                and isinstance(entry.message, AssistantMessage)
                and entry.message.stop_reason not in ("aborted", "error")
            ):
                fresh = calculate_context_tokens(entry.message.usage) > 0
                break
        if not fresh:
            return {"tokens": None, "contextWindow": window, "percent": None}
    estimate = estimate_context_tokens(session.messages)
    return {
        "tokens": estimate.tokens,
        "contextWindow": window,
        "percent": estimate.tokens / window * 100,
    }

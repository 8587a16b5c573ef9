"""Which tool call the `tool_call` hooks are deciding, so a plugin's dialog can name it.

The ACP gate's front opens a scope before every other `tool_call` hook and its back closes it
after them; all of them run in one task, so a context variable carries the scope between them.
A call another gate blocked never reaches the back: its scope is closed when the call ends.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class CallScope:
    """The tool call being decided; `approved` once the client allowed it in a plugin's dialog."""

    tool_call_id: str
    approved: bool = False
    closed: bool = False


_current: ContextVar[CallScope | None] = ContextVar("pi_acp_call_scope", default=None)


def open_scope(tool_call_id: str) -> CallScope:
    """Start deciding `tool_call_id` in this task; returns its scope."""
    scope = CallScope(tool_call_id)
    _current.set(scope)
    return scope


def current_scope() -> CallScope | None:
    """The scope of the tool call being decided in this task, if any."""
    scope = _current.get()
    return None if scope is None or scope.closed else scope


def close_scope(tool_call_id: str) -> CallScope | None:
    """End the scope of `tool_call_id` (if it is the open one) and return it."""
    scope = _current.get()
    if scope is None or scope.tool_call_id != tool_call_id:
        return None
    _current.set(None)
    scope.closed = True
    return scope

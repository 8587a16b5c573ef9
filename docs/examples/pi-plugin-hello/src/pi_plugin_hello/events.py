"""Hooks: while a session runs, the status line counts the greetings."""

from __future__ import annotations

from collections.abc import Callable

from pi_core import ExtensionContext, hookimpl
from pi_core.events import SessionShutdownEvent, SessionStartEvent

_subscriptions: list[Callable[[], None]] = []


@hookimpl
def session_start(event: SessionStartEvent, ctx: ExtensionContext) -> None:
    """Listen for `greet` on the plugin event bus and count in the status line."""
    greeted: list[str] = []

    def count(name: object) -> None:
        greeted.append(str(name))
        ctx.ui.set_status("hello", f"{len(greeted)} greeted")

    _subscriptions.append(ctx.events.on("hello:greeted", count))


@hookimpl
def session_shutdown(event: SessionShutdownEvent) -> None:
    """Stop listening: the bus outlives a /reload, and the next session subscribes again."""
    while _subscriptions:
        _subscriptions.pop()()

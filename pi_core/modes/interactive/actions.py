"""What Enter, Esc, Alt+Up, Shift+Tab, Ctrl+P and Ctrl+T do (the app's key actions call these)."""

from __future__ import annotations

import contextlib
from typing import Any, Protocol

from pi_core.modes.interactive.commands import split_command
from pi_core.modes.interactive.host import EventHost, Screen
from pi_core.modes.interactive.session_events import flush_pending_bash, run_user_bash


class ActionHost(EventHost, Protocol):
    """What the key actions use besides the session and the editor."""

    def run_command(self, name: str, args: str) -> None:
        """Run a built-in slash command."""


def submit(host: ActionHost, text: str, follow_up: bool) -> None:
    """Route what Enter sent: command, `!` bash, queue, or a prompt."""
    host.state.status_line = None
    command = split_command(text)
    if command is not None:
        host.run_command(*command)
        return
    if text.startswith("!"):
        run_user_bash(host, text)
        return
    if host.session.compaction.is_compacting and not text.startswith("/"):
        host.state.compaction_queue.append(text)
        return
    if host.session.is_streaming:
        behaviour = "followUp" if follow_up else "steer"
        host.spawn(_send(host, text, behaviour), "queue")
        return
    flush_pending_bash(host)
    host.spawn(_send(host, text, None), "prompt")


async def _send(host: Screen, text: str, behaviour: str | None) -> None:
    from pi_core.modes.interactive.mentions import attach_mentions

    def report(message: str) -> None:
        host.transcript.status(message, "yellow")

    text = await attach_mentions(text, mention_sources(host.session), report)
    if behaviour is None:
        await host.session.prompt(text)
    else:
        await host.session.prompt(text, streaming_behavior=behaviour)


def mention_sources(session: Any) -> list[Any]:
    """The plugins' `@`/`#` completion sources."""
    return list(session.plugins.registry.completions.values())


def interrupt(host: EventHost) -> bool:
    """Esc: abort the agent (restoring the queue), a `!` command, compaction or a retry."""
    session, state = host.session, host.state
    if session.is_streaming or state.retry_until is not None:
        dequeue(host, quiet=True)
        host.spawn(session.abort(), "abort")
        return True
    if state.bash_running():
        session.bash.abort()
        return True
    if session.compaction.is_compacting:
        session.compaction.abort()
        return True
    return False


def dequeue(host: EventHost, quiet: bool = False) -> None:
    """Alt+Up: queued messages back into the editor, before what is there."""
    state, buffer = host.state, host.buffer
    cleared = host.session.prompts.clear()
    texts = [*cleared["steering"], *cleared["followUp"], *state.compaction_queue]
    state.compaction_queue = []
    if not texts:
        if not quiet:
            state.status_line = "No queued messages to restore"
        return
    existing = buffer.text
    joined = "\n\n".join(texts)
    buffer.text = f"{joined}\n\n{existing}" if existing else joined
    buffer.cursor_position = len(buffer.text)
    state.status_line = f"Restored {len(texts)} queued message(s) to editor"


def cycle_thinking(host: Screen) -> None:
    """Shift+Tab: the next level this model supports."""
    model = host.session.model
    if model is None or not model.reasoning:
        host.state.status_line = "Current model does not support thinking"
        return
    level = host.session.cycle_thinking_level()
    host.state.status_line = f"Thinking level: {level}"


def cycle_model(host: Screen, backward: bool) -> None:
    """Ctrl+P: the next scoped (or available) model."""

    async def cycle() -> None:
        result = await host.session.cycle_model(backward)
        if result is None:
            host.state.status_line = "Only one model available"
            return
        model, level = result
        host.state.status_line = f"Switched to {model.name or model.id} (thinking: {level})"

    host.spawn(cycle(), "cycle model")


def toggle_thinking(host: Screen) -> None:
    """Ctrl+T: hide or show thinking blocks, saved in the settings."""
    hidden = not host.transcript.hide_thinking
    host.transcript.hide_thinking = hidden
    with contextlib.suppress(Exception):
        host.session.settings.set_hide_thinking_block(hidden)
    host.state.status_line = f"Thinking blocks: {'hidden' if hidden else 'visible'}"

"""The live region's text: the streaming tail, running tools, `!` results held back, the queue,
the working row, the status line and the plugins' widgets above the editor."""

from __future__ import annotations

import time

from pi_core.modes.interactive.extension_ui import InteractiveUI
from pi_core.modes.interactive.live_state import LiveState
from pi_core.modes.interactive.transcript import Transcript
from pi_core.modes.interactive.working import WorkingIndicator

DEFAULT_INDICATOR = WorkingIndicator()  # compaction, bash and retries: plugins do not restyle it


def live_text(
    state: LiveState, transcript: Transcript, ui: InteractiveUI, streaming: bool, width: int
) -> str:
    """The live region at `width`, as ANSI text (empty when there is nothing to show)."""
    parts: list[str] = []
    tail = transcript.tail(width)
    if tail:
        parts.append(tail)
    tools = transcript.live_tools(width)
    if tools:
        parts.append(tools)
    dim = "\x1b[2m"
    reset = "\x1b[0m"
    for message in state.pending_bash:
        parts.append(f"{dim}$ {message.command} (output shown after this run){reset}")
    queued = [f"Steering: {t}" for t in state.queue.steering]
    queued += [f"Follow-up: {t}" for t in state.queue.follow_up]
    queued += [f"Queued: {t}" for t in state.compaction_queue]
    for line in queued:
        parts.append(dim + _one_line(line, width) + reset)
    if queued:
        parts.append(f"{dim}↳ Alt+Up to edit all queued messages{reset}")
    busy = state.working or (ui.working_message or "Working..." if streaming else None)
    indicator = ui.indicator if busy and not state.working else DEFAULT_INDICATOR
    if state.retry_until is not None:
        left = max(0, state.retry_until - time.monotonic())
        busy = f"Retrying in {left:.0f}s... (escape to cancel)"
        indicator = DEFAULT_INDICATOR
    row = indicator.row(busy, time.monotonic() - state.spinner_start) if busy else None
    if row:
        parts.append(row)
    if state.status_line:
        parts.append(dim + state.status_line + reset)
    for line in ui.widget_lines("aboveEditor", width):
        parts.append(line)
    return "\n".join(parts)


def _one_line(text: str, width: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: max(0, width - 1)] + "…"

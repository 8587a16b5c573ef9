"""What the REPL does with session events, and with `!` / `!!` commands."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from pi_core.agent_session.session_events import (
    AutoRetryStartEvent,
    CompactionEndEvent,
    CompactionStartEvent,
    QueueUpdateEvent,
)
from pi_core.events.agent import (
    AgentEndEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from pi_core.messages.agent import BashExecutionMessage, CustomMessage
from pi_core.messages.llm import AssistantMessage, UserMessage

if TYPE_CHECKING:
    from pi_core.modes.interactive.host import EventHost


def run_user_bash(app: EventHost, text: str) -> None:
    """`!cmd` (into the context) or `!!cmd` (kept out of it)."""
    if app.state.bash_task is not None and not app.state.bash_task.done():
        app.transcript.status(
            "Warning: A bash command is already running. Press Esc to cancel it first.",
            "yellow",
        )
        app.buffer.text = text
        return
    exclude = text.startswith("!!")
    command = text[2:] if exclude else text[1:]
    command = command.strip()
    if not command:
        return
    streaming = app.session.is_streaming
    app.state.working = f"$ {command}  Running... (escape to cancel)"

    async def run() -> None:
        try:
            await app.session.execute_bash(command, exclude_from_context=exclude)
        except Exception as error:
            app.transcript.status(f"Error: {error}", "red")
            return
        finally:
            app.state.working = None
        message = app.session.bash.pending[-1] if app.session.bash.pending else None
        if message is None:
            message = _last_bash(app.session.messages)
        if message is None:
            return
        if streaming or app.session.is_streaming:
            app.state.pending_bash.append(message)
        else:
            app.transcript.bash_result(message, app.columns())

    app.state.bash_task = app.spawn(run(), "bash")


def flush_pending_bash(app: EventHost) -> None:
    """Print the `!` commands that finished while the agent worked."""
    for message in app.state.pending_bash:
        app.transcript.bash_result(message, app.columns())
    app.state.pending_bash = []


def handle_event(app: EventHost, event: Any) -> None:
    """Record an agent or session event (rendering happens on the next frame)."""
    transcript = app.transcript
    if isinstance(event, MessageUpdateEvent):
        # the hot path (one per delta): no terminal query, no redraw request; the frame
        # timer redraws while the agent streams
        if isinstance(event.message, AssistantMessage):
            transcript.assistant_update(event.message)
        return
    width = app.columns()
    if isinstance(event, MessageStartEvent):
        message = event.message
        if isinstance(message, UserMessage):
            transcript.user(message, width)
        elif isinstance(message, AssistantMessage):
            transcript.assistant_start(message)
        elif isinstance(message, CustomMessage):
            transcript.custom(message, width)
    elif isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
        transcript.assistant_end(event.message, width)
    elif isinstance(event, ToolExecutionStartEvent):
        transcript.tool_start(event.tool_call_id, event.tool_name, event.args)
    elif isinstance(event, ToolExecutionUpdateEvent):
        transcript.tool_update(event.tool_call_id, event.partial_result)
    elif isinstance(event, ToolExecutionEndEvent):
        transcript.tool_end(event.tool_call_id, event.result, event.is_error, width)
    elif isinstance(event, QueueUpdateEvent):
        app.state.queue = event
    elif isinstance(event, AgentStartEvent):
        app.state.spinner_start = time.monotonic()
    elif isinstance(event, AgentEndEvent):
        if not app.session.is_streaming:
            flush_pending_bash(app)
    elif isinstance(event, CompactionStartEvent):
        app.state.working = ("Compacting context... (escape to cancel)" if event.reason == "manual"
                        else "Auto-compacting... (escape to cancel)")  # fmt: skip
    elif isinstance(event, CompactionEndEvent):
        _on_compaction_end(app, event, width)
    elif isinstance(event, AutoRetryStartEvent):
        app.state.retry_until = time.monotonic() + event.delay_ms / 1000
        transcript.status(
            f"Warning: retrying ({event.attempt}/{event.max_attempts}) in "
            f"{event.delay_ms / 1000:.0f}s: {getattr(event, 'error_message', '')}",
            "yellow",
        )
    elif getattr(event, "type", "") == "auto_retry_end":
        app.state.retry_until = None
        if not getattr(event, "success", True):
            transcript.status(f"Error: Retry failed: {getattr(event, 'final_error', '')}",
                              "red")  # fmt: skip
    app.invalidate()


def _on_compaction_end(app: EventHost, event: CompactionEndEvent, width: int) -> None:
    app.state.working = None
    if event.aborted:
        app.transcript.status("Compaction cancelled", "red")
    elif event.error_message:
        app.transcript.status(f"Error: {event.error_message}", "red")
    elif event.result is not None:
        app.transcript.labelled(
            "compaction",
            f"Compacted from {event.result.tokens_before:,} tokens",
            event.result.summary,
            width,
        )
    queued, app.state.compaction_queue = app.state.compaction_queue, []
    for index, text in enumerate(queued):
        if index == 0:
            app.spawn(app.session.prompt(text), "prompt")
        else:
            app.spawn(app.session.prompt(text, streaming_behavior="followUp"), "queue")


def _last_bash(messages: list[Any]) -> Any:
    for message in reversed(messages):
        if isinstance(message, BashExecutionMessage):
            return message
    return None

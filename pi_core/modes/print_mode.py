"""`pi -p`: run the prompts, print the final answer (text) or every event (json), then exit."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from pi_core.agent_session.session import AgentSession
from pi_core.messages.content import ImageContent, TextContent
from pi_core.messages.llm import AssistantMessage
from pi_core.modes.jsonl import serialize_line
from pi_core.modes.stdout import flush_records, write_record
from pi_core.terminal_text import for_stream


async def run_print_mode(
    session: AgentSession,
    messages: list[str],
    *,
    images: list[ImageContent] | None = None,
    json_mode: bool = False,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Send each message in turn; return the exit code (1 when the last answer failed)."""
    stdout = out or sys.stdout
    stderr = err or sys.stderr

    def on_error(error: Any) -> None:
        line = f"Extension error ({error.source or error.plugin}): {error.error}"
        stderr.write(for_stream(line, stderr) + "\n")

    session.dispatcher.on_error(on_error)
    if json_mode:
        print_record = _record_printer(out)
        print_record(session.session_manager.get_header())
        session.subscribe(print_record)
    code = 0
    try:
        for index, message in enumerate(messages):
            await session.prompt(message, images=images if index == 0 else None)
        if not json_mode:
            code = _print_last_answer(session, stdout, stderr)
    except Exception as error:
        stderr.write(f"{error}\n")
        code = 1
    finally:
        await session.shutdown()
        if json_mode and out is None:
            flush_records()
        stdout.flush()
    return code


def _record_printer(out: TextIO | None) -> Callable[[Any], None]:
    """Print one JSONL record per call: to the real stdout through the writer thread (queued
    per loop step, so a slow reader never stalls the stream), to `out` at once."""
    if out is None:
        return write_record

    def print_record(record: Any) -> None:
        out.write(serialize_line(record))
        out.flush()

    return print_record


def _print_last_answer(session: AgentSession, stdout: TextIO, stderr: TextIO) -> int:
    last = session.messages[-1] if session.messages else None
    if not isinstance(last, AssistantMessage):
        return 0
    if last.stop_reason in ("error", "aborted"):
        error = last.error_message or f"Request {last.stop_reason}"
        stderr.write(for_stream(error, stderr) + "\n")
        return 1
    for block in last.content:
        if isinstance(block, TextContent):
            stdout.write(for_stream(block.text, stdout) + "\n")
    return 0

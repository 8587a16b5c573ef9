"""`TERM=dumb`: a plain line-by-line REPL that writes no escape codes at all."""

from __future__ import annotations

import asyncio
import sys
from typing import Any, TextIO

from pi_core.events.agent import (
    MessageEndEvent,
    MessageUpdateEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
)
from pi_core.messages.llm import AssistantMessage
from pi_core.modes.interactive.dumb_text import AnswerText
from pi_core.modes.interactive.tool_views import result_text
from pi_core.modes.interactive.transcript import args_preview
from pi_core.terminal_text import sanitize

PROMPT = "> "


class DumbRepl:
    """Reads lines, sends them, prints the answer as plain text while it streams."""

    def __init__(self, session: Any, out: TextIO | None = None) -> None:
        self.session = session
        self.out = out or sys.stdout
        self._answer = AnswerText()
        session.subscribe(self.on_event)

    def write(self, text: str) -> None:
        """Write (cleaned: no control character reaches the terminal) and flush."""
        self.out.write(sanitize(text))
        self.out.flush()

    def on_event(self, event: Any) -> None:
        """Print text deltas, tool calls and errors."""
        if isinstance(event, MessageUpdateEvent) and isinstance(event.message, AssistantMessage):
            self._print(self._answer.on_stream_event(event.assistant_message_event))
        elif isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            message = event.message
            self._print(self._answer.finish(message))
            if message.stop_reason == "error":
                self.write(f"\nError: {message.error_message}\n")
            elif message.stop_reason == "aborted":
                self.write("\nOperation aborted\n")
            else:
                self.write("\n")
        elif isinstance(event, ToolExecutionStartEvent):
            self.write(f"[{event.tool_name}] {args_preview(event.args)}\n")
        elif isinstance(event, ToolExecutionEndEvent):
            lines = result_text(event.result).rstrip("\n").split("\n")
            shown = "\n".join(lines[:10])
            more = f"\n... ({len(lines) - 10} more lines)" if len(lines) > 10 else ""
            label = "error" if event.is_error else "result"
            self.write(f"[{label}] {shown}{more}\n")

    def _print(self, text: str) -> None:
        if text:
            self.write(text)

    async def run(self, first_prompt: str | None, images: Any = None) -> int:
        """Loop until end of input or `/quit`."""
        loop = asyncio.get_running_loop()
        if first_prompt:
            await self._send(first_prompt, images)
        while True:
            self.write(PROMPT)
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                self.write("\n")
                return 0
            text = line.strip()
            if text in ("/quit", "/exit"):
                return 0
            if text:
                await self._send(text, None)

    async def _send(self, text: str, images: Any) -> None:
        try:
            if text.startswith("!"):
                exclude = text.startswith("!!")
                command = text[2:] if exclude else text[1:]
                result = await self.session.execute_bash(command.strip(),
                                                         exclude_from_context=exclude)  # fmt: skip
                self.write(result.output if result.output.endswith("\n") or not result.output
                           else result.output + "\n")  # fmt: skip
                return
            await self.session.prompt(text, images=images)
        except Exception as error:
            self.write(f"Error: {error}\n")

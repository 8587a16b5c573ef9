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
from pi_core.modes.interactive.tool_views import result_text
from pi_core.modes.interactive.transcript import args_preview
from pi_core.terminal_text import incomplete_tail, sanitize

PROMPT = "> "


class DumbRepl:
    """Reads lines, sends them, prints the answer as plain text while it streams."""

    def __init__(self, session: Any, out: TextIO | None = None) -> None:
        self.session = session
        self.out = out or sys.stdout
        self._printed: dict[int, int] = {}
        session.subscribe(self.on_event)

    def write(self, text: str) -> None:
        """Write (cleaned: no control character reaches the terminal) and flush."""
        self.out.write(sanitize(text))
        self.out.flush()

    def on_event(self, event: Any) -> None:
        """Print text deltas, tool calls and errors."""
        if isinstance(event, MessageUpdateEvent) and isinstance(event.message, AssistantMessage):
            self._print_new_text(event.message)
        elif isinstance(event, MessageEndEvent) and isinstance(event.message, AssistantMessage):
            self._print_new_text(event.message, final=True)
            self._printed = {}
            message = event.message
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

    def _print_new_text(self, message: AssistantMessage, final: bool = False) -> None:
        from pi_core.messages.content import TextContent

        for index, block in enumerate(message.content):
            if isinstance(block, TextContent):
                done = self._printed.get(index, 0)
                # an escape sequence cut by the stream waits for its end, to be removed whole
                ready = len(block.text) if final else incomplete_tail(block.text)
                if ready > done:
                    self.write(block.text[done:ready])
                    self._printed[index] = ready

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

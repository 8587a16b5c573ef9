"""The text of a streaming answer for the plain-terminal REPL, followed delta by delta."""

from __future__ import annotations

from typing import Any

from pi_core.messages.content import TextContent
from pi_core.messages.llm import AssistantMessage
from pi_core.terminal_stream import CleanStream
from pi_core.terminal_text import sanitize


class AnswerText:
    """Cleans each text block of one answer as its deltas arrive (thinking is not shown).

    It reads the stream's deltas, never the partial message, whose long text the message
    builder joins only now and then: each delta costs O(delta), and nothing waits for a join.
    """

    def __init__(self) -> None:
        self._blocks: dict[int, CleanStream] = {}

    def on_stream_event(self, event: Any) -> str:
        """The cleaned text a streamed event (`assistant_message_event`) makes ready to print."""
        kind = getattr(event, "type", None)
        if kind == "text_delta":
            return self._block(event.content_index).feed(event.delta)
        if kind == "text_end":  # a sequence still cut now never ends: removed whole
            return self._block(event.content_index).finish()
        return ""

    def finish(self, message: AssistantMessage) -> str:
        """The rest at `message_end`: what streamed blocks still hold (an error or abort
        mid-stream ends them), and whole any text block that never streamed."""
        parts: list[str] = []
        texts = {i for i, block in enumerate(message.content) if isinstance(block, TextContent)}
        for index in sorted(texts | self._blocks.keys()):
            stream = self._blocks.get(index)
            if stream is not None:
                parts.append(stream.finish())
            else:
                block = message.content[index]
                assert isinstance(block, TextContent)
                parts.append(sanitize(block.text))
        self._blocks = {}
        return "".join(parts)

    def _block(self, index: int) -> CleanStream:
        stream = self._blocks.get(index)
        if stream is None:
            stream = self._blocks[index] = CleanStream()
        return stream

"""Turns session events into finished blocks (for the scrollback) and a live tail.

Event handlers only record state; `advance()` is called on the frame timer, so however fast
deltas arrive the rendering work is bounded by the frame rate, never by the stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group
from rich.padding import Padding
from rich.text import Text

from pi_core import deep
from pi_core.messages.agent import (
    BashExecutionMessage,
    BranchSummaryMessage,
    CompactionSummaryMessage,
    CustomMessage,
)
from pi_core.messages.content import TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, ToolResultMessage, UserMessage, content_text
from pi_core.messages.partial_text import bring_up_to_date
from pi_core.modes.interactive.images import IMAGE_WIDTH_CELLS, image_lines, inline_protocol
from pi_core.modes.interactive.line_padding import trim_padding
from pi_core.modes.interactive.markdown_view import MarkdownOptions
from pi_core.modes.interactive.rendering import MarkdownStream, markdown, render_ansi
from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.tool_views import ToolView, result_images
from pi_core.terminal_text import sanitize


class Transcript:
    """The chat: what is printed for good, and what is still changing."""

    def __init__(
        self,
        theme: Theme,
        tools: Callable[[str], Any],
        renderers: Callable[[str], Any],
        report: Callable[[str, BaseException], None],
        markdown_options: MarkdownOptions | None = None,
    ) -> None:
        self.theme = theme
        self.markdown_options = markdown_options or MarkdownOptions()
        self.tools = tools
        self.renderers = renderers
        self.report = report
        self.out: list[str] = []
        self.expanded = False
        self.hide_thinking = False
        self.hidden_thinking_label = "Thinking..."  # what a hidden thinking block shows
        self.views: dict[str, ToolView] = {}
        self.recent_views: list[ToolView] = []
        self._assistant: AssistantMessage | None = None
        self._block_index = 0
        self._stream: MarkdownStream | None = None
        self._thinking_note_shown = False
        self._last_visible: str | None = None  # "thinking" or "text": the answer's last block
        self.image_protocol = inline_protocol() if theme.color else None
        self.show_images = True  # `terminal.showImages`: False prints every image as its line
        self.image_width_cells = IMAGE_WIDTH_CELLS  # `terminal.imageWidthCells`

    def fresh(self) -> Transcript:
        """An empty transcript that draws as this one does (options, labels, image settings),
        for printing the whole chat again."""
        copy = Transcript(self.theme, self.tools, self.renderers, self.report,
                          self.markdown_options)  # fmt: skip
        copy.expanded = self.expanded
        copy.hide_thinking = self.hide_thinking
        copy.hidden_thinking_label = self.hidden_thinking_label
        copy.image_protocol = self.image_protocol
        copy.show_images = self.show_images
        copy.image_width_cells = self.image_width_cells
        return copy

    def _drawn_protocol(self) -> str | None:
        return self.image_protocol if self.show_images else None

    def _image(self, data: str, mime: str) -> str:
        return image_lines(data, mime, self._drawn_protocol(), self.image_width_cells)

    # --- blocks printed once --------------------------------------------------------------

    def emit(self, ansi: str) -> None:
        """Queue finished ANSI lines for the scrollback."""
        if ansi:
            self.out.append(ansi)

    def take_out(self, limit: int | None = None) -> str:
        """Remove and return the queued lines (with a final newline); with a `limit`, only the
        first lines up to about that many characters (at least one line), the rest stays."""
        text = trim_padding("\n".join(self.out)) + "\n" if self.out else ""
        self.out = []
        if limit is None or len(text) <= limit:
            return text
        cut = text.find("\n", max(limit, 1) - 1) + 1  # the end of the line crossing the limit
        if 0 < cut < len(text):
            self.out = [text[cut:-1]]
            return text[:cut]
        return text

    def status(self, text: str, style: str = "dim") -> None:
        """A one-line status (red errors and yellow warnings get a blank line before them)."""
        text = sanitize(text)  # before rich, which drops a BEL and would split a sequence
        prefix = "\n" if style in ("red", "yellow") else ""
        width = max(len(line) for line in text.split("\n")) + 1  # the terminal wraps, not rich
        self.emit(prefix + render_ansi(Text(text, style=style), width, color=self.theme.color))

    def user(self, message: UserMessage, width: int) -> None:
        """A user message: markdown on its own background."""
        text = (
            content_text(message.content)
            if not isinstance(message.content, str)
            else message.content
        )
        body = Padding(markdown(text, options=self.markdown_options), (1, 1),
                       style=self.theme.style("userMessageBg"), expand=True)  # fmt: skip
        self.emit("\n" + render_ansi(body, width, color=self.theme.color))
        if not isinstance(message.content, str):
            for data, mime in result_images(message):
                self.emit(" " + self._image(data, mime))

    def message(self, message: Any, width: int) -> None:
        """Any finished message, e.g. when a session is loaded."""
        if isinstance(message, UserMessage):
            self.user(message, width)
        elif isinstance(message, AssistantMessage):
            self.assistant_start(message)
            self.assistant_end(message, width)
        elif isinstance(message, ToolResultMessage):
            view = self.views.get(message.tool_call_id)
            if view is not None:
                view.state = "running"
                view.finish(message, message.is_error)
                self._commit_views(width)
        elif isinstance(message, BashExecutionMessage):
            self.bash_result(message, width)
        elif isinstance(message, CustomMessage):
            self.custom(message, width)
        elif isinstance(message, CompactionSummaryMessage):
            self.labelled("compaction", f"Compacted from {message.tokens_before:,} tokens",
                          message.summary, width)  # fmt: skip
        elif isinstance(message, BranchSummaryMessage):
            self.labelled("branch", "Branch summary", message.summary, width)

    def labelled(self, label: str, summary: str, body: str, width: int) -> None:
        """A `[label]` block: one line collapsed, the markdown body expanded."""
        label, summary = sanitize(label), sanitize(summary)
        head = Text(f"[{label}] ", style=self.theme.style("customMessageLabel"))
        if self.expanded:
            head.append(summary, style="bold")
            block: Any = Group(head, markdown(body, options=self.markdown_options))
        else:
            head.append(f"{summary} (ctrl+o to expand)", style="dim")
            block = head
        self.emit("\n" + render_ansi(Padding(block, (0, 1)), width, color=self.theme.color))

    def custom(self, message: CustomMessage, width: int) -> None:
        """A plugin's message: its registered renderer, else `[type]` and the text."""
        if not message.display:
            return
        renderer = self.renderers(message.custom_type)
        if renderer is not None:
            try:
                drawn = renderer(message, {"expanded": self.expanded}, self.theme)
                if drawn is not None:
                    self.emit(render_ansi(drawn, width, color=self.theme.color))
                    return
            except Exception as error:
                self.report(f"message renderer {message.custom_type!r}", error)
        text = (
            message.content if isinstance(message.content, str) else content_text(message.content)
        )
        self.labelled(message.custom_type, text.split("\n", 1)[0][:80], text, width)

    def bash_result(self, message: BashExecutionMessage, width: int) -> None:
        """A `!` / `!!` command and its output (last lines unless expanded)."""
        style = self.theme.style("bashMode") if not message.exclude_from_context else "dim"
        output = sanitize(message.output)
        lines = output.rstrip("\n").split("\n") if output.strip() else []
        shown = lines if self.expanded else lines[-20:]
        parts: list[Any] = [Text(f"$ {sanitize(message.command)}", style=f"bold {style}")]
        if len(shown) < len(lines):
            parts.append(Text(f"... {len(lines) - len(shown)} more lines (ctrl+o to expand)",
                              style="dim"))  # fmt: skip
        if shown:
            parts.append(Text("\n".join(shown), style="dim"))
        if message.cancelled:
            parts.append(Text("(cancelled)", style="yellow"))
        elif message.exit_code not in (0, None):
            parts.append(Text(f"(exit {message.exit_code})", style="red"))
        if message.full_output_path:
            parts.append(Text(f"Output truncated. Full output: {message.full_output_path}",
                              style="yellow"))  # fmt: skip
        self.emit("\n" + render_ansi(Padding(Group(*parts), (0, 1)), width,
                                     color=self.theme.color))  # fmt: skip

    # --- the streaming assistant message --------------------------------------------------

    def assistant_start(self, message: AssistantMessage) -> None:
        """A new answer begins."""
        self._assistant = message
        self._block_index = 0
        self._stream = None
        self._thinking_note_shown = False
        self._last_visible = None

    def assistant_update(self, message: AssistantMessage) -> None:
        """More of the answer arrived (rendered on the next frame)."""
        self._assistant = message

    def assistant_end(self, message: AssistantMessage, width: int) -> None:
        """The answer is complete: print what is left and its error or abort note."""
        self._assistant = message
        self.advance(width, final=True)
        has_calls = any(isinstance(block, ToolCall) for block in message.content)
        if message.stop_reason == "aborted":
            text = message.error_message or "Operation aborted"
            if text == "Request was aborted":
                text = "Operation aborted"
            for view in self.views.values():
                if not view.finished:
                    view.finish({"content": [{"type": "text", "text": text}]}, True)
            if not has_calls:
                self.status(text, "red")
        elif message.stop_reason == "error":
            self.status(f"Error: {message.error_message or 'unknown error'}", "red")
        self._assistant = None
        self._commit_views(width)

    def restart_stream(self) -> None:
        """The chat was printed again: the streaming answer starts over from its first line
        (what is queued for the scrollback is dropped with the old picture)."""
        if self._assistant is not None:
            self.out = []
            self._block_index = 0
            self._stream = None
            self._thinking_note_shown = False

    def advance(self, width: int, final: bool = False, deadline: float | None = None) -> bool:
        """Move completed parts of the answer to the scrollback (called once per frame).

        With a `deadline` (`time.perf_counter()`), rendering of the streaming block stops once
        it has passed; returns True when rendering work is left for another call.
        """
        message = self._assistant
        if message is None:
            return False
        bring_up_to_date(message)  # once a frame: a long block's text lags behind its deltas
        blocks = message.content
        while self._block_index < len(blocks):
            block = blocks[self._block_index]
            is_last = self._block_index == len(blocks) - 1
            done = final or not is_last
            if isinstance(block, TextContent | ThinkingContent):
                self._stream_block(block, width, done, None if done else deadline)
            elif isinstance(block, ToolCall):
                self._tool_call(block)
            if not done:
                return self._stream is not None and self._stream.behind
            self._block_index += 1
            self._stream = None
        return False

    def _stream_block(
        self,
        block: TextContent | ThinkingContent,
        width: int,
        done: bool,
        deadline: float | None = None,
    ) -> None:
        is_thinking = isinstance(block, ThinkingContent)
        source = block.thinking if isinstance(block, ThinkingContent) else block.text
        if is_thinking and self.hide_thinking:
            if not self._thinking_note_shown and source.strip():
                note = render_ansi(Padding(Text(self.hidden_thinking_label, style="dim italic"),
                                           (0, 1)), width, color=self.theme.color)  # fmt: skip
                self.emit("\n" + note if self._spacer_owed() else note)
                self._thinking_note_shown = True
                self._last_visible = "thinking"
            return
        if self._stream is None:
            style = self.theme.style("thinkingText") if is_thinking else ""
            self._stream = MarkdownStream(style=style, options=self.markdown_options)
            self._stream.gap = self._spacer_owed()
        self._stream.feed(source)
        stable = self._stream.take_stable(width, deadline)
        if stable:
            self.emit(stable)
        if done:
            rest = self._stream.finish(width)
            if rest:
                self.emit(rest)
            if source.strip():
                self._last_visible = "thinking" if is_thinking else "text"

    def _spacer_owed(self) -> bool:
        """pi puts a blank row above an answer's first block and below a thinking block."""
        return self._last_visible in (None, "thinking")

    def _tool_call(self, block: ToolCall) -> None:
        view = self.views.get(block.id)
        if view is None:
            view = ToolView(block.id, block.name, self.tools(block.name), self.theme, self.report)
            self.views[block.id] = view
        if view.state == "pending":
            view.args = block.arguments

    def tail(self, width: int) -> str:
        """The live part of the answer (the unfinished paragraph)."""
        return self._stream.tail(width) if self._stream is not None else ""

    # --- tools ----------------------------------------------------------------------------

    def tool_start(self, call_id: str, name: str, args: Any) -> None:
        """A tool started running."""
        view = self.views.get(call_id)
        if view is None:
            view = ToolView(call_id, name, self.tools(name), self.theme, self.report)
            self.views[call_id] = view
        view.start(args)

    def tool_update(self, call_id: str, partial: Any) -> None:
        """A tool streamed partial output."""
        view = self.views.get(call_id)
        if view is not None:
            view.update(partial)

    def tool_end(self, call_id: str, result: Any, is_error: bool, width: int) -> None:
        """A tool finished; finished calls go to the scrollback in call order."""
        view = self.views.get(call_id)
        if view is not None:
            view.finish(result, is_error)
        if self._assistant is None:
            self._commit_views(width)

    def _commit_views(self, width: int) -> None:
        for call_id, view in list(self.views.items()):
            if not view.finished:
                break
            self.emit("\n" + view.render(width, self.expanded))  # pi's blank row above a call
            if self._drawn_protocol() is not None:  # else the result's text names each image
                for data, mime in result_images(view.result):
                    self.emit(self._image(data, mime))
            self.recent_views.append(view)
            del self.views[call_id]
        self.recent_views = self.recent_views[-20:]

    def live_tools(self, width: int) -> str:
        """The calls still running, drawn live."""
        return "\n".join(view.render(width, self.expanded) for view in self.views.values())

    def reprint_recent(self, width: int) -> None:
        """After Ctrl+O: print the latest tool results again in the new state."""
        if not self.recent_views:
            return
        state = "expanded" if self.expanded else "collapsed"
        self.status(f"Tool output {state}:")
        for view in self.recent_views:
            self.emit(view.render(width, self.expanded))


def args_preview(args: Any) -> str:
    """Arguments as one short JSON line."""
    try:
        return deep.dumps(args, ensure_ascii=False)[:200]
    except (TypeError, ValueError):
        return str(args)[:200]

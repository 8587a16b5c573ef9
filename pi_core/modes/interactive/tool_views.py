"""One tool call in the REPL, drawn by its tool's `render_call` / `render_result` or by default.

A renderer that raises is reported once (through `on_render_error`) and the call falls back
to the plain view, so a broken plugin never hides what the agent did.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from rich.console import Group
from rich.padding import Padding
from rich.text import Text

from pi_core import deep
from pi_core.messages.content import ImageContent, TextContent
from pi_core.modes.interactive.images import placeholder
from pi_core.modes.interactive.rendering import render_ansi, untrusted
from pi_core.modes.interactive.theme import Theme
from pi_core.terminal_text import sanitize, screen_rows

ToolState = Literal["pending", "running", "success", "error"]
COLLAPSED_LINES = 10
BACKGROUNDS: dict[ToolState, str] = {
    "pending": "on #282832",
    "running": "on #282832",
    "success": "on #283228",
    "error": "on #3c2828",
}


class ToolView:
    """The state of one call (arguments, partial and final result) and how it looks."""

    def __init__(
        self,
        call_id: str,
        name: str,
        tool: Any,
        theme: Theme,
        on_render_error: Callable[[str, BaseException], None],
    ) -> None:
        self.call_id = call_id
        self.name = name
        self.tool = tool
        self.theme = theme
        self.on_render_error = on_render_error
        self.args: Any = {}
        self.state: ToolState = "pending"
        self.result: Any = None
        self.started: float | None = None
        self.ended: float | None = None
        self._failed_hooks: set[str] = set()

    @property
    def finished(self) -> bool:
        """Whether the call has its final result."""
        return self.state in ("success", "error")

    def start(self, args: Any) -> None:
        """The tool began running with these arguments."""
        self.args = args if args is not None else self.args
        self.state = "running"
        self.started = time.monotonic()

    def update(self, partial: Any) -> None:
        """A partial result arrived (streamed output)."""
        self.result = partial

    def finish(self, result: Any, is_error: bool) -> None:
        """The final result arrived."""
        self.result = result
        self.state = "error" if is_error else "success"
        self.ended = time.monotonic()

    def render(self, width: int, expanded: bool) -> str:
        """Return the call as ANSI text: header, result, elapsed time, on the state's colour."""
        parts: list[Any] = [self._header()]
        body = self._body(expanded, max(1, width - 2))
        if body is not None:
            parts.append(body)
        elapsed = self._elapsed()
        if elapsed:
            parts.append(Text(elapsed, style="dim"))
        block = Padding(Group(*parts), (1, 1), style=BACKGROUNDS[self.state], expand=True)
        return render_ansi(block, width, color=self.theme.color)

    def _elapsed(self) -> str:
        if self.started is None:
            return ""
        if self.ended is None:
            return f"Elapsed {time.monotonic() - self.started:.1f}s"
        if self.name == "bash":
            return f"Took {self.ended - self.started:.1f}s"
        return ""

    def _hook(self, hook: str, *args: Any) -> Any:
        method = getattr(self.tool, hook, None)
        if method is None or hook in self._failed_hooks:
            return None
        try:
            drawn = method(*args)
        except Exception as error:
            self._failed_hooks.add(hook)
            self.on_render_error(f"{self.name}.{hook}", error)
            return None
        return untrusted(drawn) if drawn is not None else None

    def _header(self) -> Any:
        custom = self._hook("render_call", self.args, self.theme)
        if custom is not None:
            return custom
        header = Text(self.name, style="bold")
        if self.args:
            try:
                shown = deep.dumps(self.args, ensure_ascii=False)
            except (TypeError, ValueError):
                shown = str(self.args)
            header.append(" " + _one_line(sanitize(shown), 200), style="dim")
        return header

    def _body(self, expanded: bool, width: int) -> Any:
        if self.result is None:
            return None
        options: dict[str, Any] = {
            "expanded": expanded,
            "is_partial": not self.finished,
            "is_error": self.state == "error",
            "width": width,  # the columns the result has, to count screen rows
        }
        result = _as_tool_result(self.result)
        custom = self._hook("render_result", result, options, self.theme)
        if custom is not None:
            return custom
        output = result_text(self.result)
        return default_result_view(output, expanded, self.state == "error", width)


def default_result_view(output: str, expanded: bool, is_error: bool, width: int = 0) -> Text:
    """The plain view of a result: its first screen rows at `width` (all when expanded), red
    for an error; a long line counts as the rows it wraps to."""
    lines = output.rstrip("\n").split("\n") if output.strip() else []
    text = Text()
    if not lines:
        return text
    rows = screen_rows(lines, width) if width > 0 else lines
    shown = rows if expanded else rows[:COLLAPSED_LINES]
    text.append("\n".join(shown), style="red" if is_error else "")
    if len(shown) < len(rows):
        text.append(f"\n... ({len(rows) - len(shown)} more lines, ctrl+o to expand)", style="dim")
    return text


def result_text(result: Any) -> str:
    """The text of a result (a ToolResult, a dict read back from a session, or anything else)."""
    content = getattr(result, "content", None)
    if content is None and isinstance(result, dict):
        content = result.get("content")
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, TextContent):
                parts.append(block.text)
            elif isinstance(block, ImageContent):
                parts.append(placeholder(block.mime_type, block.data))
            elif isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
            elif isinstance(block, dict) and block.get("type") == "image":
                mime = str(block.get("mimeType") or block.get("mime_type") or "image")
                parts.append(placeholder(mime, str(block.get("data", ""))))
        return _printable("\n".join(parts))
    return _printable(str(result)) if result is not None else ""


def result_images(result: Any) -> list[tuple[str, str]]:
    """(base64 data, mime type) of each image in a result."""
    content = getattr(result, "content", None)
    if content is None and isinstance(result, dict):
        content = result.get("content")
    found: list[tuple[str, str]] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, ImageContent):
            found.append((block.data, block.mime_type))
        elif isinstance(block, dict) and block.get("type") == "image":
            mime = str(block.get("mimeType") or block.get("mime_type") or "image")
            found.append((str(block.get("data", "")), mime))
    return found


def _printable(text: str) -> str:
    return sanitize(text).replace("\t", "    ")


def _as_tool_result(result: Any) -> Any:
    from pi_core.tools.tool import ToolResult

    if isinstance(result, ToolResult):
        return result
    try:
        if isinstance(result, dict):
            return ToolResult.model_validate(result)
        content = getattr(result, "content", None)
        if content is not None:
            return ToolResult(content=content, details=getattr(result, "details", None))
    except ValueError:
        pass
    return ToolResult.text(str(result))


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

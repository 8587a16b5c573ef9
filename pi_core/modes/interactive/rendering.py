"""Rich renderables to ANSI text, and markdown streaming: stable lines out, the tail kept live."""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")


def strip_ansi(text: str) -> str:
    """Remove escape sequences (for the dumb terminal and for tests)."""
    return _ANSI.sub("", text)


def render_ansi(renderable: Any, width: int, *, color: bool = True) -> str:
    """Render a rich renderable (or a str, as plain text) to ANSI text without a final newline."""
    console = Console(
        file=io.StringIO(),
        width=max(20, width),
        force_terminal=color,
        color_system="truecolor" if color else None,
        legacy_windows=False,
        emoji=False,
        highlight=False,
        no_color=not color,
    )
    if isinstance(renderable, str):
        renderable = Text(renderable)
    console.print(renderable, end="")
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return str(output).rstrip("\n")


def markdown(text: str, *, style: str = "") -> Markdown:
    """The markdown renderable used for messages (code blocks highlighted with monokai)."""
    return Markdown(text, code_theme="monokai", style=style or "none")


def stable_split(source: str) -> int:
    """Return the offset up to which markdown `source` is complete: the last blank line
    outside a code fence, so rendering the prefix alone gives the same lines as in the whole."""
    in_fence = False
    offset = 0
    boundary = 0
    for line in source.splitlines(keepends=True):
        offset += len(line)
        if not line.endswith("\n"):
            break
        if _FENCE.match(line):
            in_fence = not in_fence
            if not in_fence:
                boundary = offset
            continue
        if not in_fence and not line.strip():
            boundary = offset
    return boundary


class MarkdownStream:
    """Streams one markdown text: finished paragraphs are handed out once, the tail stays live.

    Only the unfinished tail is re-rendered on each frame, so the cost per frame does not grow
    with the length of the answer (aider's mdstream re-renders everything; this splits the
    source at block boundaries instead).
    """

    def __init__(self, style: str = "", indent: int = 1) -> None:
        self.source = ""
        self.committed = 0
        self.style = style
        self.indent = indent

    def feed(self, source: str) -> None:
        """Replace the text seen so far (it only grows while streaming)."""
        self.source = source

    def take_stable(self, width: int) -> str | None:
        """Return the ANSI of newly completed blocks (None if none), marking them committed."""
        boundary = self.committed + stable_split(self.source[self.committed :])
        if boundary <= self.committed:
            return None
        chunk = self.source[self.committed : boundary]
        self.committed = boundary
        if not chunk.strip():
            return None
        return self._render(chunk, width)

    def tail(self, width: int, max_lines: int = 12) -> str:
        """Return the ANSI of the live tail, cut to its last `max_lines` lines."""
        rest = self.source[self.committed :]
        if not rest.strip():
            return ""
        if len(rest) > 20_000:  # a huge unfinished block: show its end plainly
            lines = rest.splitlines()[-max_lines:]
            return render_ansi(Text("\n".join(lines), style=self.style or ""), width)
        rendered = self._render(rest, width).split("\n")
        return "\n".join(rendered[-max_lines:])

    def finish(self, width: int) -> str | None:
        """Return the ANSI of everything not yet committed, and commit it."""
        rest = self.source[self.committed :]
        self.committed = len(self.source)
        return self._render(rest, width) if rest.strip() else None

    def _render(self, chunk: str, width: int) -> str:
        from rich.padding import Padding

        body = Padding(markdown(chunk.strip("\n"), style=self.style), (0, 0, 0, self.indent))
        return render_ansi(body, width)

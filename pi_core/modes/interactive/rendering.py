"""Rich renderables to ANSI text, and markdown streaming: stable lines out, the tail kept live."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import io
import re
import time
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

from pi_core.modes.interactive.markdown_view import MarkdownOptions, MarkdownView
from pi_core.terminal_text import sanitize

MAX_LIVE_SOURCE = 4_000  # longest unfinished block rendered each frame
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_MAY_CONTINUE = frozenset(" \t-*+0123456789")
_CONTINUES = re.compile(r"^(\s|[-*+]\s|\d{1,9}[.)]\s)")  # a list item or its continuation
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)")


def strip_ansi(text: str) -> str:
    """Remove the CSI and OSC sequences of rendered output (for tests; untrusted text goes
    through `pi_core.terminal_text.sanitize`)."""
    return _ANSI.sub("", text)


class Sanitized:
    """A renderable drawn with every segment's text (and link) cleaned by `sanitize`: only rich
    itself emits escape codes (colours, styles, hyperlinks), whatever the text held."""

    def __init__(self, renderable: Any) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The inner renderable's segments, cleaned; control segments are dropped."""
        for segment in console.render(self.renderable, options):
            if segment.control:
                continue
            style = segment.style
            if style is not None and style.link and sanitize(style.link) != style.link:
                style = style + Style(link=sanitize(style.link))
            yield Segment(sanitize(segment.text), style)


def untrusted(value: Any) -> Any:
    """A plugin's drawing as a renderable: a string is read as ANSI text (its colours kept,
    every other sequence removed), a list of strings as its lines, anything else as it is."""
    if isinstance(value, list | tuple) and all(isinstance(line, str) for line in value):
        value = "\n".join(value)
    if isinstance(value, str):
        return Text.from_ansi(sanitize(value, keep_colors=True))
    return value


def render_ansi(renderable: Any, width: int, *, color: bool = True) -> str:
    """Render a rich renderable (or a str, as ANSI text) to ANSI text without a final newline.

    Text inside is untrusted: it goes through `Sanitized`, so the output holds no escape code
    but rich's own.
    """
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
    console.print(Sanitized(untrusted(renderable)), end="")
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return str(output).rstrip("\n")


@functools.lru_cache(maxsize=64)
def ansi_fragments(text: str) -> list[tuple[str, str]]:
    """ANSI text as prompt_toolkit fragments, one per run of equal style.

    prompt_toolkit's `ANSI` makes one fragment per character, and each redraw splits and measures
    them several times over; runs make the live region's redraw cheap enough to follow each key.
    """
    from prompt_toolkit.formatted_text import ANSI, to_formatted_text

    text = sanitize(text, keep_colors=True)  # ANSI passes `\001…\002` to the terminal raw
    runs: list[tuple[str, str]] = []
    style = ""
    chars: list[str] = []
    for fragment in to_formatted_text(ANSI(text)):
        if fragment[0] != style:
            if chars:
                runs.append((style, "".join(chars)))
            style, chars = fragment[0], []
        chars.append(fragment[1])
    if chars:
        runs.append((style, "".join(chars)))
    return runs


def markdown(text: str, *, style: str = "", options: MarkdownOptions | None = None) -> MarkdownView:
    """The markdown renderable used for messages, laid out as pi does (see markdown_view); the
    source is cleaned first, so whole escape sequences go, not just their escape bytes."""
    chosen = options or MarkdownOptions()
    if style:
        chosen = dataclasses.replace(chosen, style=style)
    return MarkdownView(sanitize(text), chosen)


def warm_up() -> None:
    """Load the markdown renderer and the code highlighter now (called once the editor is up)."""
    # only a head start: the first real answer loads whatever failed here
    with contextlib.suppress(Exception):
        render_ansi(markdown("**warm** `up`\n\n```python\nx = 1\n```"), 40)


def stable_split(source: str) -> int:
    """Return the offset up to which markdown `source` is complete, so rendering the prefix alone
    gives the same lines as in the whole: after a closing code fence, or at a blank line outside
    a fence once the next line has come and does not continue a list (a marker or an indent)."""
    in_fence = False
    offset = 0
    boundary = 0
    candidate = 0  # the end of the last blank line, until the next line shows what follows
    for line in source.splitlines(keepends=True):
        if not line.endswith("\n"):
            # an unfinished line decides once its first character cannot start a list item
            if candidate and not in_fence and line[0] not in _MAY_CONTINUE:
                boundary = candidate
            break
        if candidate and line.strip():
            if not in_fence and not _CONTINUES.match(line):
                boundary = candidate
            candidate = 0
        offset += len(line)
        if _FENCE.match(line):
            in_fence = not in_fence
            if not in_fence and not line[0].isspace():
                boundary = offset
            continue
        if not in_fence and not line.strip():
            candidate = offset
    return boundary


class MarkdownStream:
    """Streams one markdown text: finished lines are handed out once, the tail stays live.

    The source is split at block boundaries (a blank line outside a code fence): a finished
    block is rendered once and committed, so the cost of a frame does not grow with the answer;
    the blank row between two blocks is handed out with the first row of the second, so the
    scrollback shows the same rows as the text rendered whole (Ctrl+O's redraw).
    Inside a long unfinished block, all but the last `live_lines` rendered lines are committed
    too (aider's mdstream pattern), and skipped when that block is finally rendered whole. A
    block longer than `MAX_LIVE_SOURCE` is cut at a line or word break (a code fence is closed
    and reopened), so even a 1 MB paragraph streams in bounded time per frame.
    """

    def __init__(
        self,
        style: str = "",
        indent: int = 1,
        live_lines: int = 6,
        options: MarkdownOptions | None = None,
    ) -> None:
        self.source = ""
        self.options = options or MarkdownOptions()
        self.gap = False  # a blank row is owed before the next block's first row
        self.committed = 0
        self.carry = ""  # a code fence opened before `committed`, reopened for the rest
        self.lines_out = 0  # lines of the unfinished block already handed out
        self.style = style
        self.indent = indent
        self.live_lines = live_lines
        self._cache: tuple[str, int, str, bool] = ("", 0, "", False)
        self._last_tail = ""
        self.behind = False  # the last take_stable stopped at its deadline with work left

    def feed(self, source: str) -> None:
        """Replace the text seen so far (it only grows while streaming)."""
        self.source = source

    def _rest(self) -> str:
        return self.carry + self.source[self.committed :]

    def take_stable(self, width: int, deadline: float | None = None) -> str | None:
        """Return the ANSI of newly finished lines (None if none), marking them committed.

        With a `deadline` (a `time.perf_counter()` value) it stops rendering once that has
        passed, leaving the rest for the next call; `behind` then says more is waiting.
        """
        out: list[str] = []
        self.behind = False
        while True:
            rest = self._rest()
            window = rest[:MAX_LIVE_SOURCE]  # each step renders a bounded piece
            boundary = stable_split(window)
            if boundary > len(self.carry):
                self._commit(window[:boundary], boundary - len(self.carry), "", width, out)
            elif len(rest) > MAX_LIVE_SOURCE:
                self._force_split(window, width, out)
            else:
                break
            if deadline is not None and time.perf_counter() > deadline:
                self.behind = len(self._rest()) > len(self.carry)
                return "\n".join(out) if out else None
        rest = self._rest()
        if rest.strip():
            lines = self._render(rest, width).split("\n")
            ready = len(lines) - self.live_lines
            if ready > self.lines_out:
                self._hand_out(lines[self.lines_out : ready], out)
                self.lines_out = ready
        return "\n".join(out) if out else None

    def _hand_out(self, lines: list[str], out: list[str]) -> None:
        if lines and self.lines_out == 0 and self.gap:
            out.append("")
            self.gap = False
        out += lines

    def _commit(
        self,
        chunk: str,
        consumed: int,
        carry: str,
        width: int,
        out: list[str],
        *,
        forced: bool = False,
    ) -> None:
        if chunk.strip():
            rows = self._render(chunk, width).split("\n")
            if forced and carry:
                rows = rows[:-1]  # the fence closed only for this cut is not shown
            self._hand_out(rows[self.lines_out :], out)
            self.gap = not forced
        self.committed += consumed
        self.carry = carry
        self.lines_out = 0

    def _force_split(self, window: str, width: int, out: list[str]) -> None:
        # cut as late as possible: the lines handed out so far all lie before the cut
        cut = window.rfind("\n", len(self.carry))
        if cut <= len(self.carry):
            cut = window.rfind(" ", len(self.carry))
        if cut <= len(self.carry):
            cut = len(window) - 1
        cut += 1
        fence = _open_fence(window[:cut])
        chunk = window[:cut] + ("\n" + fence[:3] + "\n" if fence else "")
        carry = fence + "\n" if fence else ""
        self._commit(chunk, cut - len(self.carry), carry, width, out, forced=True)

    def tail(self, width: int) -> str:
        """Return the ANSI of the live tail (the lines not handed out yet).

        While the renderer is behind the stream (more than one bounded piece waits), the last
        tail drawn is kept: a redraw never renders more than `MAX_LIVE_SOURCE` characters.
        """
        rest = self._rest()
        if not rest.strip():
            return ""
        if len(rest) > MAX_LIVE_SOURCE:
            return self._last_tail
        lines = self._render(rest, width).split("\n")[self.lines_out :]
        owed = [""] if self.gap and self.lines_out == 0 else []
        self._last_tail = "\n".join(owed + lines)
        return self._last_tail

    def finish(self, width: int) -> str | None:
        """Return the ANSI of everything not yet handed out, and commit it."""
        first = self.take_stable(width)  # cuts what is too long first
        out = first.split("\n") if first else []
        rest = self._rest()
        skip, self.lines_out = self.lines_out, 0
        self.committed = len(self.source)
        self.carry = ""
        if rest.strip():
            self.lines_out = skip
            self._hand_out(self._render(rest, width).split("\n")[skip:], out)
            self.lines_out = 0
        return "\n".join(out) if out else None

    def _render(self, chunk: str, width: int) -> str:
        from rich.padding import Padding

        reopened = bool(self.carry) and chunk.startswith(self.carry)
        if self._cache[0] == chunk and self._cache[1] == width and self._cache[3] == reopened:
            return self._cache[2]
        text = markdown(chunk.strip("\n"), style=self.style, options=self.options)
        body = Padding(text, (0, 0, 0, self.indent))
        rendered = render_ansi(body, width - self.indent)  # pi pads both sides
        if reopened:  # the fence reopened after a cut was shown before it
            rendered = rendered.split("\n", 1)[1] if "\n" in rendered else ""
        self._cache = (chunk, width, rendered, reopened)
        return rendered


def _open_fence(source: str) -> str:
    """The opening line of a code fence still open at the end of `source` ('' if none)."""
    opening = ""
    for line in source.splitlines():
        if _FENCE.match(line):
            opening = "" if opening else line.strip()
    return opening

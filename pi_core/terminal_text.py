"""Untrusted text made safe for a terminal: no control character or escape sequence passes.

Model answers, tool output, command output, plugin text, session and file names can all carry
escape sequences that would clear the screen, set the window title or write the clipboard.
`sanitize` is the one place that cleans such text before it is drawn:

- newline and tab are kept; a carriage return is dropped (`\\r\\n` becomes `\\n`);
- CSI sequences (`ESC [` or U+009B, parameters, intermediates, a final byte: colours, cursor
  moves, screen clears) and the short escapes (`ESC c`, `ESC 7`, `ESC ( B`…) are removed;
- string sequences (OSC, DCS, SOS, PM, APC: titles, clipboard writes, hyperlinks, terminal
  queries), introduced by `ESC ]`, `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their 8-bit forms, are
  removed up to their terminator (BEL, `ESC \\` or U+009C). One left unterminated ends at the
  end of its line: text on the next lines is never swallowed. An OSC 8 hyperlink's markers are
  removed silently (its text stays); any other string leaves a visible `␛`;
- a stray ESC, an unfinished CSI and any other C1 control (U+0080 to U+009F) show as `␛`;
- the other C0 controls and DEL show as their Unicode control pictures (`␇` for BEL).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MARK", "for_stream", "incomplete_tail", "sanitize", "screen_rows"]

MARK = "\u241b"  # ␛: where a sequence with a payload, or a stray escape, was removed
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SEQUENCE = re.compile(
    r"(?P<csi>(?:\x1b\[|\x9b)(?P<params>[0-?]*)(?P<inter>[ -/]*)(?P<final>[@-~]))"
    r"|(?P<badcsi>(?:\x1b\[|\x9b)[0-?]*[ -/]*)"
    r"|(?P<string>(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])(?P<payload>[^\x07\x1b\x9c\n\x18\x1a]*)"
    r"(?:\x07|\x1b\\|\x9c|[\x18\x1a])?)"
    r"|(?P<escape>\x1b[ -/]*[0-~])"
    r"|(?P<control>[\x00-\x08\x0b-\x1f\x7f-\x9f])"
)
_SHORT_ESCAPE_START = re.compile(r"\x1b[ -/]+\Z")
_PLAIN_SGR = re.compile(r"\x1b\[[0-9;:]*m")
_SGR_PARAMS = re.compile(r"[0-9;:]*")


def sanitize(text: str, *, keep_colors: bool = False) -> str:
    """Return `text` with every control character and escape sequence removed or made visible.

    With `keep_colors`, colour and style sequences (SGR, `ESC [ … m`) are kept, for text that is
    decoded into styles (rich's `Text.from_ansi`, prompt_toolkit's `ANSI`) rather than written.
    """
    if _UNSAFE.search(_PLAIN_SGR.sub("", text) if keep_colors else text) is None:
        return text  # the common case, without a Python call per sequence
    return _SEQUENCE.sub(lambda match: _replacement(match, keep_colors), text)


def _replacement(match: re.Match[str], keep_colors: bool) -> str:
    kind = match.lastgroup
    if kind == "csi":
        if (
            keep_colors
            and match["final"] == "m"
            and not match["inter"]
            and _SGR_PARAMS.fullmatch(match["params"])
        ):
            return f"\x1b[{match['params']}m"
        return ""
    if kind == "string":
        hyperlink = match[0].startswith(("\x1b]", "\x9d")) and match["payload"].startswith("8;")
        return "" if hyperlink else MARK
    if kind == "escape":
        return ""
    char = match[0]
    if len(char) > 1 or char == "\x1b" or char >= "\x80":  # an unfinished CSI, ESC, C1
        return MARK
    if char == "\r":
        return ""
    if char == "\x7f":
        return "\u2421"
    return chr(0x2400 + ord(char))


def incomplete_tail(text: str) -> int:
    """The offset where an escape sequence still unfinished at the end of `text` begins
    (`len(text)` if none): text streamed in pieces is cleaned up to there, the rest waits."""
    line_start = text.rfind("\n") + 1  # no sequence spans a newline
    if _UNSAFE.search(text, line_start) is None:
        return len(text)
    short = _SHORT_ESCAPE_START.search(text, line_start)
    if short is not None:
        return short.start()
    matches = list(_SEQUENCE.finditer(text, line_start))
    if not matches or matches[-1].end() < len(text):
        return len(text)
    last = matches[-1]
    kind, whole = last.lastgroup, last[0]
    unfinished = (
        kind == "badcsi"
        or whole == "\x1b"
        or (kind == "string" and not whole.endswith(("\x07", "\x1b\\", "\x9c", "\x18", "\x1a")))
    )
    return last.start() if unfinished else len(text)


def for_stream(text: str, stream: Any) -> str:
    """`text` cleaned by `sanitize` when `stream` is a terminal, else unchanged (output piped to
    a file or another program stays byte-exact)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return sanitize(text) if isatty is not None and isatty() else text
    except ValueError:  # a closed stream
        return text


def screen_rows(lines: list[str], width: int) -> list[str]:
    """`lines` as the rows they take on a screen `width` columns wide (words kept whole, wide
    characters counted as two columns), for tool views that collapse output by screen rows."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.text import Text

    console = Console(width=width, emoji=False, highlight=False)
    rows: list[str] = []
    for line in lines:
        if cell_len(line) <= width:
            rows.append(line)
        else:
            rows += [row.plain.rstrip() for row in Text(line).wrap(console, width)]
    return rows

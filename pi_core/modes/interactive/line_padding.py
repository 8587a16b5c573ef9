"""Trailing padding taken off lines bound for the scrollback.

rich pads each line it renders with spaces to the full width. In the scrollback that padding is
invisible until the terminal gets narrower: then every padded line wraps onto a second row (a
doubled line, a table row split in two). Spaces that show something (a background, reverse
video, an underline) are kept; the escape codes are kept too.
"""

from __future__ import annotations

import re

_TRAILING = re.compile(r"(?:[ ]|\x1b\[[0-9;:]*m)*$")
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")
_TOKEN = re.compile(r"\x1b\[[0-9;:]*m|[ ]")
_VISIBLE_ON_SPACE = {4, 7, 9, 53}  # underline, reverse, strike-through, overline
_UNDONE_BY = {24: 4, 27: 7, 29: 9, 55: 53}


def trim_padding(text: str) -> str:
    """`text` with the invisible trailing spaces of each line removed."""
    if " " not in text:
        return text
    return "\n".join(_trim_line(line) for line in text.split("\n"))


def _trim_line(line: str) -> str:
    tail_start = _TRAILING.search(line)
    start = tail_start.start() if tail_start else len(line)
    tail = line[start:]
    if " " not in tail:
        return line
    shown = _shows_spaces(set(), line[:start])
    tokens = _TOKEN.findall(tail)
    keep_until = -1  # the last space that shows something, and what comes before it
    for index, token in enumerate(tokens):
        if token == " ":
            if shown:
                keep_until = index
        else:
            shown = _shows_spaces(shown, token)
    kept = [t for i, t in enumerate(tokens) if i <= keep_until or t != " "]
    return line[:start] + "".join(kept)


def _shows_spaces(state: set[str], text: str) -> set[str]:
    """The attributes that make a space visible, after the SGR codes in `text`."""
    state = set(state)
    for match in _SGR.finditer(text):
        params = re.split("[;:]", match.group(1))
        index = 0
        while index < len(params):
            value = int(params[index]) if params[index].isdigit() else 0
            if value == 0:
                state.clear()
            elif value in (38, 58):  # a colour for text or underline: skip its arguments
                index += 2 if index + 1 < len(params) and params[index + 1] == "5" else 4
            elif value == 48:
                state.add("bg")
                index += 2 if index + 1 < len(params) and params[index + 1] == "5" else 4
            elif 40 <= value <= 47 or 100 <= value <= 107:
                state.add("bg")
            elif value == 49:
                state.discard("bg")
            elif value in _VISIBLE_ON_SPACE:
                state.add(str(value))
            elif value in _UNDONE_BY:
                state.discard(str(_UNDONE_BY[value]))
            index += 1
    return state

"""Untrusted text that arrives in pieces, cleaned for a terminal as a whole at O(piece) a piece.

Each piece is cleaned (`terminal_text.sanitize`) up to an escape sequence still cut at its end
(`terminal_text.incomplete_tail`); that sequence is held and removed whole once the pieces that
end it arrive, so the written pieces add up to `sanitize` of the whole text. Only the held
sequence is ever scanned again, and only when a piece can end it: a piece that merely goes on
with it (a long title's payload, a long run of CSI parameters) is checked on its own.
"""

from __future__ import annotations

import re

from pi_core.terminal_text import incomplete_tail, sanitize

__all__ = ["CleanStream"]

# what an unfinished sequence can take and stay unfinished, by the kind of sequence it is
_STRING_START = re.compile(r"\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]")
_STRING_GOES_ON = re.compile(r"[^\x07\x1b\x9c\n\x18\x1a]*")
_CSI_START = re.compile(r"\x1b\[|\x9b")
_PARAMETERS_GO_ON = re.compile(r"[0-?]*[ -/]*")
_INTERMEDIATES_GO_ON = re.compile(r"[ -/]*")


class CleanStream:
    """One streamed text, written cleaned as its pieces arrive."""

    __slots__ = ("_goes_on", "_held")

    def __init__(self) -> None:
        self._held: list[str] = []  # one unfinished escape sequence, in pieces
        self._goes_on: re.Pattern[str] | None = None  # a piece it stays unfinished with

    def feed(self, piece: str) -> str:
        """The cleaned text that `piece` makes ready to write ("" while a cut sequence goes on)."""
        if not piece:
            return ""
        if self._goes_on is not None and self._goes_on.fullmatch(piece):
            self._held.append(piece)
            self._goes_on = _goes_on(self._held[0], piece[-1])
            return ""
        text = "".join(self._held) + piece if self._held else piece
        ready = incomplete_tail(text)
        tail = text[ready:]
        self._held = [tail] if tail else []
        self._goes_on = _goes_on(tail, tail[-1]) if tail else None
        return sanitize(text[:ready])

    def finish(self) -> str:
        """The cleaned rest: a sequence still cut when the text ends is removed whole."""
        rest = "".join(self._held)
        self._held, self._goes_on = [], None
        return sanitize(rest)


def _goes_on(start: str, last: str) -> re.Pattern[str]:
    """What a held sequence that begins with `start` and ends (so far) with the character `last`
    can take and stay unfinished."""
    if _STRING_START.match(start):
        return _STRING_GOES_ON
    if _CSI_START.match(start):
        # parameters, then intermediates: once an intermediate came, only more of them
        return _INTERMEDIATES_GO_ON if " " <= last <= "/" else _PARAMETERS_GO_ON
    return _INTERMEDIATES_GO_ON  # ESC, or ESC and intermediates: a short escape

"""The session's lines inside the page: inert in a `<script>` element, and given back exactly.

Only `<` can end a script element's text or open a comment in it, and in JSON it can only stand
inside a string, so each `<` is written as the JSON escape `\\u003C`: every line still parses to
the same entry. When the file holds no `\\u003C` of its own (nor a carriage return or NUL, which
the HTML parser changes, nor bytes that are not UTF-8), turning each `\\u003C` back into `<`
gives the file byte for byte, and the page needs no second, packed copy for "↓ JSONL".
"""

from __future__ import annotations

from collections.abc import Iterator

ESCAPED_LT = b"\\u003C"
_CHUNK = 4 << 20


def script_lines(data: bytes) -> Iterator[bytes]:
    """`data` with every `<` escaped, in chunks.

    Carriage returns are left out: the HTML parser would turn a lone one into a newline, which
    would shift the line numbers the sidebar gives; in JSON they can only be whitespace.
    """
    carriage_returns = b"\r" in data
    for start in range(0, len(data), _CHUNK):
        chunk = data[start : start + _CHUNK].replace(b"<", ESCAPED_LT)
        yield chunk.replace(b"\r", b"") if carriage_returns else chunk


def restorable(data: bytes) -> bool:
    """Whether the page can give `data` back from its escaped lines alone."""
    if ESCAPED_LT in data or b"\r" in data or b"\0" in data:
        return False
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def restored(text: bytes) -> bytes:
    """The file the escaped lines came from (what the page's download does)."""
    return text.replace(ESCAPED_LT, b"<")

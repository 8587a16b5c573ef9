"""Deciding whether file bytes are text, and decoding them without ever failing."""

from __future__ import annotations

BINARY_SNIFF_BYTES = 8000
"""How much of a file is checked for NUL bytes (git's heuristic)."""

_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def looks_binary(head: bytes) -> bool:
    """Return whether the first bytes of a file say it is not text (a NUL byte, as git decides)."""
    if head.startswith(_UTF16_BOMS):
        return False  # UTF-16 text with a byte-order mark
    return b"\x00" in head[:BINARY_SNIFF_BYTES]


def decode_text(data: bytes) -> str:
    """Decode file bytes: UTF-16 when it has a byte-order mark, else UTF-8.

    Bytes that are not valid UTF-8 become U+FFFD (the replacement character), as pi's
    `buffer.toString("utf-8")` does; a UTF-8 byte-order mark is kept as U+FEFF.
    """
    if data.startswith(_UTF16_BOMS):
        return data.decode("utf-16", "replace")
    return data.decode("utf-8", "replace")

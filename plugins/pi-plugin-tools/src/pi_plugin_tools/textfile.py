"""Deciding whether file bytes are text (decoding is `textscan`'s)."""

from __future__ import annotations

BINARY_SNIFF_BYTES = 8000
"""How much of a file is checked for NUL bytes (git's heuristic)."""

UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def looks_binary(head: bytes) -> bool:
    """Return whether the first bytes of a file say it is not text (a NUL byte, as git decides)."""
    if head.startswith(UTF16_BOMS):
        return False  # UTF-16 text with a byte-order mark
    return b"\x00" in head[:BINARY_SNIFF_BYTES]

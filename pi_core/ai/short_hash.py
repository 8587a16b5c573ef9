"""pi-ai's `shortHash`, which providers use to shorten or rename tool-call and item ids.

Hand-written rather than a library hash: the ids must be the ones pi sends, byte for byte, so a
session moves between pi and us (and between providers) with the same ids.
"""

from __future__ import annotations

_MASK = 0xFFFFFFFF
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _imul(a: int, b: int) -> int:
    """JavaScript's `Math.imul`, on unsigned 32-bit values."""
    return (a * b) & _MASK


def _base36(value: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _DIGITS[digit] + digits
        if not value:
            return digits


def short_hash(text: str) -> str:
    """pi-ai's `shortHash` of `text`: two 32-bit mixes over its UTF-16 code units, in base 36."""
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    units = text.encode("utf-16-le", "surrogatepass")
    for index in range(0, len(units), 2):
        unit = units[index] | units[index + 1] << 8
        h1 = _imul(h1 ^ unit, 2654435761)
        h2 = _imul(h2 ^ unit, 1597334677)
    h1 = _imul(h1 ^ (h1 >> 16), 2246822507) ^ _imul(h2 ^ (h2 >> 13), 3266489909)
    h2 = _imul(h2 ^ (h2 >> 16), 2246822507) ^ _imul(h1 ^ (h1 >> 13), 3266489909)
    return _base36(h2) + _base36(h1)

"""Sorting names the way pi's `ls` does (`a.toLowerCase().localeCompare(b.toLowerCase())`).

JavaScript's localeCompare follows the Unicode collation (ICU root locale): punctuation and
symbols first, in their own order, then digits, then letters with accents ignored at first.
This is a close approximation without ICU.
"""

from __future__ import annotations

import unicodedata

_PUNCTUATION = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
"""ASCII punctuation and symbols in the ICU root order."""


def _char_key(char: str) -> tuple[int, int]:
    index = _PUNCTUATION.find(char)
    if index != -1:
        return (0, index)
    if char.isdigit():
        return (1, ord(char))
    if char.isalpha():
        return (2, ord(char))
    if unicodedata.category(char).startswith(("P", "S", "Z")):
        return (0, len(_PUNCTUATION) + ord(char))
    return (3, ord(char))


def collation_key(name: str) -> tuple[tuple[tuple[int, int], ...], str, str]:
    """Return a sort key: base characters first, then accents, then the name itself."""
    lowered = name.lower()
    decomposed = unicodedata.normalize("NFD", lowered)
    base = "".join(c for c in decomposed if not unicodedata.combining(c))
    return tuple(_char_key(c) for c in base), decomposed, name

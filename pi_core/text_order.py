"""Sorting as pi's JavaScript does it: `localeCompare` (pi-tui's fuzzy filter is pi_core.fuzzy)."""

from __future__ import annotations

# The Unicode root collation's order of printable ASCII at the primary level (what node's
# `localeCompare` gives): spaces, punctuation, symbols, digits, then letters, case aside.
_PRIMARY_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789" + "abcdefghijklmnopqrstuvwxyz"
_PRIMARY = {char: index for index, char in enumerate(_PRIMARY_ORDER)}


def locale_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A sort key giving JavaScript's `a.localeCompare(b)` order for ASCII text: letters compare
    without case first, then lower case before upper case; other characters after ASCII."""
    primary = tuple(_PRIMARY.get(c.lower(), 1000 + ord(c)) for c in text)
    tertiary = tuple(1 if c.isupper() else 0 for c in text)
    return primary, tertiary

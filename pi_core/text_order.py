"""Sorting and fuzzy filtering as pi's JavaScript does it: `localeCompare`, pi-tui's fuzzyFilter."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

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


_BOUNDARY = re.compile(r"[\s\-_./:]")
_LETTERS_DIGITS = re.compile(r"^([a-z]+)([0-9]+)$")
_DIGITS_LETTERS = re.compile(r"^([0-9]+)([a-z]+)$")


def _match(query: str, text: str) -> float | None:
    if not query:
        return 0.0
    if len(query) > len(text):
        return None
    position, score, last, streak = 0, 0.0, -1, 0
    for index, char in enumerate(text):
        if position == len(query):
            break
        if char != query[position]:
            continue
        if last == index - 1:
            streak += 1
            score -= streak * 5
        else:
            streak = 0
            if last >= 0:
                score += (index - last - 1) * 2
        if index == 0 or _BOUNDARY.match(text[index - 1]):
            score -= 10
        score += index * 0.1
        last = index
        position += 1
    if position < len(query):
        return None
    return score - 100 if query == text else score


def fuzzy_score(query: str, text: str) -> float | None:
    """pi-tui's fuzzyMatch: None when the query's letters are not all in `text` in order, else a
    score (lower is better); `abc12` may also match as `12abc`."""
    query, text = query.lower(), text.lower()
    score = _match(query, text)
    if score is not None:
        return score
    found = _LETTERS_DIGITS.match(query) or _DIGITS_LETTERS.match(query)
    if not found:
        return None
    swapped = _match(found.group(2) + found.group(1), text)
    return None if swapped is None else swapped + 5


def fuzzy_filter(items: Iterable[T], query: str, text_of: Callable[[T], str]) -> list[T]:
    """pi-tui's fuzzyFilter: every space-separated token must match; best total score first."""
    tokens = query.split()
    if not tokens:
        return list(items)
    scored = []
    for item in items:
        text, total = text_of(item), 0.0
        for token in tokens:
            score = fuzzy_score(token, text)
            if score is None:
                break
            total += score
        else:
            scored.append((total, item))
    scored.sort(key=lambda pair: pair[0])
    return [item for _, item in scored]

"""Fuzzy matching as pi's selectors and `/` menu rank (pi-tui's fuzzy matcher).

One convention: a score is a number where LOWER IS BETTER, and None means no match.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

_WORD_BOUNDARY = re.compile(r"[\s\-_./:]")
_LETTERS_DIGITS = re.compile(r"^([a-z]+)([0-9]+)$")
_DIGITS_LETTERS = re.compile(r"^([0-9]+)([a-z]+)$")


def _score_in_order(query: str, text: str) -> float | None:
    """The score of `query`'s letters found in order in `text` (both lower case), or None."""
    if not query:
        return 0
    if len(query) > len(text):
        return None
    found = 0
    score = 0.0
    last = -1
    run = 0
    for i, char in enumerate(text):
        if found == len(query):
            break
        if char != query[found]:
            continue
        if last == i - 1:  # consecutive letters (a match at 0 counts as one) score better
            run += 1
            score -= run * 5
        else:
            run = 0
            if last >= 0:
                score += (i - last - 1) * 2
        if i == 0 or _WORD_BOUNDARY.match(text[i - 1]):
            score -= 10
        score += i * 0.1
        last = i
        found += 1
    if found < len(query):
        return None
    return score - 100 if query == text else score


def fuzzy_match(query: str, text: str) -> float | None:
    """Score one word against a text (lower is better), None when its letters are not in order.

    A word like `gpt4` also matches as `4gpt` (and `4gpt` as `gpt4`), scored 5 worse.
    """
    q, t = query.lower(), text.lower()
    score = _score_in_order(q, t)
    if score is not None:
        return score
    swapped = _LETTERS_DIGITS.match(q) or _DIGITS_LETTERS.match(q)
    if swapped is None:
        return None
    other = _score_in_order(swapped.group(2) + swapped.group(1), t)
    return None if other is None else other + 5


def fuzzy_score(query: str, text: str) -> float | None:
    """Score a query of space-separated words (lower is better): the sum of each word's score.

    None when some word does not match; 0 for an empty query.
    """
    total = 0.0
    for word in query.split():
        score = fuzzy_match(word, text)
        if score is None:
            return None
        total += score
    return total


def fuzzy_filter(items: Iterable[T], query: str, text: Callable[[T], str]) -> list[T]:
    """The items whose text matches the query, best first (ties keep their order)."""
    scored = [(fuzzy_score(query, text(item)), item) for item in items]
    return [item for _, item in sorted(((s, i) for s, i in scored if s is not None),
                                       key=lambda pair: pair[0])]  # fmt: skip

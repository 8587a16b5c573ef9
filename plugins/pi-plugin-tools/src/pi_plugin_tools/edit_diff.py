"""The text work behind `edit`: line endings, BOM, and exact-then-fuzzy matching of edits."""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass

from pi_core.js_text import js_trim_end

_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f]")
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]")
_SPACES = re.compile("[\u00a0\u2002-\u200a\u202f\u205f\u3000]")
BOM = "\ufeff"


def detect_line_ending(content: str) -> str:
    """Return "\\r\\n" if the first line break is CRLF, else "\\n"."""
    lf = content.find("\n")
    if lf == -1:
        return "\n"
    crlf = content.find("\r\n")
    if crlf == -1:
        return "\n"
    return "\r\n" if crlf < lf else "\n"


def normalize_to_lf(text: str) -> str:
    """Turn CRLF and lone CR line breaks into LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def restore_line_endings(text: str, ending: str) -> str:
    """Turn LF line breaks back into `ending`."""
    return text.replace("\n", "\r\n") if ending == "\r\n" else text


def strip_bom(content: str) -> tuple[str, str]:
    """Split a leading UTF-8 byte-order mark off: return (bom or "", rest)."""
    if content.startswith(BOM):
        return BOM, content[1:]
    return "", content


def normalize_for_fuzzy_match(text: str) -> str:
    """NFKC, trailing whitespace removed per line, smart quotes, dashes and spaces made ASCII."""
    text = unicodedata.normalize("NFKC", text)
    text = "\n".join(js_trim_end(line) for line in text.split("\n"))
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text)


@dataclass(frozen=True)
class Match:
    """Where an edit's old text was found, and whether that needed fuzzy matching."""

    found: bool
    index: int
    length: int
    used_fuzzy: bool
    content: str


def fuzzy_find_text(content: str, old_text: str) -> Match:
    """Find `old_text` exactly, else in the fuzzy-normalized content."""
    index = content.find(old_text)
    if index != -1:
        return Match(True, index, len(old_text), False, content)
    fuzzy_content = normalize_for_fuzzy_match(content)
    fuzzy_old = normalize_for_fuzzy_match(old_text)
    index = fuzzy_content.find(fuzzy_old)
    if index == -1:
        return Match(False, -1, 0, False, content)
    return Match(True, index, len(fuzzy_old), True, fuzzy_content)


def count_occurrences(content: str, old_text: str) -> int:
    """Count non-overlapping occurrences of `old_text` in fuzzy-normalized space.

    Counted as pi does, `content.split(old).length - 1`: an old text that normalizes to ""
    (only whitespace) counts one less than the UTF-16 length of the content.
    """
    haystack = normalize_for_fuzzy_match(content)
    needle = normalize_for_fuzzy_match(old_text)
    if needle:
        return haystack.count(needle)
    return len(haystack.encode("utf-16-le", "surrogatepass")) // 2 - 1 if haystack else -1


class EditError(ValueError):
    """An edit could not be applied; the message tells the model what to fix."""


def apply_edits(content: str, edits: list[tuple[str, str]], path: str) -> tuple[str, str]:
    """Apply (old_text, new_text) edits, all matched against `content`; return (base, new).

    `content` must already use LF line breaks. If any edit needs fuzzy matching, the whole
    file is worked on in fuzzy-normalized form (as pi does), and `base` is that form.
    """
    normalized = [(normalize_to_lf(old), normalize_to_lf(new)) for old, new in edits]
    total = len(normalized)
    for i, (old, _) in enumerate(normalized):
        if not old:
            raise EditError(
                f"oldText must not be empty in {path}."
                if total == 1
                else f"edits[{i}].oldText must not be empty in {path}."
            )
    initial = [fuzzy_find_text(content, old) for old, _ in normalized]
    base = normalize_for_fuzzy_match(content) if any(m.used_fuzzy for m in initial) else content
    matched: list[tuple[int, int, int, str]] = []
    for i, (old, new) in enumerate(normalized):
        match = fuzzy_find_text(base, old)
        if not match.found:
            raise EditError(
                f"Could not find the text to replace in {path}. It has to match character for "
                "character, spaces and line breaks included."
                if total == 1
                else f"Could not find edits[{i}] in {path}. Its oldText has to match character "
                "for character, spaces and line breaks included."
            )
        occurrences = count_occurrences(base, old)
        if occurrences > 1:
            raise EditError(
                f"Found {occurrences} occurrences of the text in {path}; it has to occur once. "
                "Take in more of the surrounding lines so that only one place matches."
                if total == 1
                else f"Found {occurrences} occurrences of edits[{i}] in {path}; every oldText "
                "has to occur once. Take in more of the surrounding lines so that only one "
                "place matches."
            )
        matched.append((match.index, match.length, i, new))
    matched.sort(key=lambda item: item[0])  # stable: equal offsets keep edit order
    for previous, current in itertools.pairwise(matched):
        if previous[0] + previous[1] > current[0]:
            raise EditError(
                f"edits[{previous[2]}] and edits[{current[2]}] overlap in {path}. "
                "Combine them into one edit, or make them cover separate parts of the file."
            )
    result = base
    for index, length, _, new in reversed(matched):
        result = result[:index] + new + result[index + length :]
    if result == base:
        raise EditError(
            f"No changes made to {path}: the new text equals the old. Check for special "
            "characters, and that the file really holds the text you expect."
            if total == 1
            else f"No changes made to {path}: after the replacements the content is unchanged."
        )
    return base, result

"""Glob patterns as fd reads them: `*` stays within a folder, `**/` spans folders, `{a,b}`."""

from __future__ import annotations

import re


def _char_class(pattern: str, start: int) -> tuple[str, int] | None:
    """Translate `[...]` starting at `start`; return (regex, index after it) or None."""
    index = start + 1
    negate = index < len(pattern) and pattern[index] in "!^"
    if negate:
        index += 1
    body_start = index
    if index < len(pattern) and pattern[index] == "]":
        index += 1
    while index < len(pattern) and pattern[index] != "]":
        index += 1
    if index >= len(pattern):
        return None
    body = pattern[body_start:index].replace("\\", "\\\\").replace("[", "\\[")
    return f"[{'^' if negate else ''}{body}]", index + 1


def glob_to_regex(pattern: str) -> str:
    """Translate a glob into an anchored regular expression (without flags)."""
    out: list[str] = []
    depth = 0
    index = 0
    length = len(pattern)
    while index < length:
        char = pattern[index]
        if char == "\\" and index + 1 < length:
            out.append(re.escape(pattern[index + 1]))
            index += 2
            continue
        if char == "*":
            if pattern.startswith("**", index):
                at_start = index == 0 or pattern[index - 1] == "/"
                after = index + 2
                if at_start and after < length and pattern[after] == "/":
                    out.append("(?:.*/)?")
                    index = after + 1
                    continue
                if at_start and after == length:
                    out.append(".*")
                    index = after
                    continue
                out.append("[^/]*")
                index = after
                continue
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            translated = _char_class(pattern, index)
            if translated is None:
                out.append(re.escape(char))
            else:
                out.append(translated[0])
                index = translated[1]
                continue
        elif char == "{":
            depth += 1
            out.append("(?:")
        elif char == "}" and depth > 0:
            depth -= 1
            out.append(")")
        elif char == "," and depth > 0:
            out.append("|")
        else:
            out.append(re.escape(char))
        index += 1
    out.extend(")" * depth)
    return "^" + "".join(out) + "$"


def compile_glob(pattern: str, smart_case: bool = True) -> re.Pattern[str]:
    """Compile a glob; with smart case, an all-lowercase pattern ignores case (as fd does)."""
    flags = re.IGNORECASE if smart_case and pattern == pattern.lower() else 0
    return re.compile(glob_to_regex(pattern), flags | re.DOTALL)

"""Read a tool function's docstring: its first paragraph and its per-parameter descriptions."""

from __future__ import annotations

import re

_GOOGLE_HEADERS = ("args:", "arguments:", "parameters:", "params:")
_NUMPY_HEADER = re.compile(r"^(parameters|params)\s*$", re.IGNORECASE)
_GOOGLE_ITEM = re.compile(r"^(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ITEM = re.compile(r"^(\w+)\s*(?::.*)?$")


def summary(doc: str) -> str:
    """Return the docstring's first paragraph, its lines joined by spaces."""
    lines: list[str] = []
    for line in doc.strip().splitlines():
        if not line.strip():
            break
        lines.append(line.strip())
    return " ".join(lines)


def parameter_descriptions(doc: str) -> dict[str, str]:
    """Return {parameter: description} from a Google-style "Args:" or a NumPy-style
    "Parameters" section; {} when there is neither."""
    lines = doc.expandtabs().splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.lower() in _GOOGLE_HEADERS:
            return _google(lines[index + 1 :])
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if _NUMPY_HEADER.match(stripped) and following and set(following) == {"-"}:
            return _numpy(lines[index + 2 :])
    return {}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _google(lines: list[str]) -> dict[str, str]:
    found: dict[str, list[str]] = {}
    item_indent: int | None = None
    current: list[str] | None = None
    for line in lines:
        if not line.strip():
            if found:
                current = None
            continue
        indent = _indent(line)
        if item_indent is None:
            item_indent = indent
        if indent < item_indent:
            break  # the section ended (a dedented line, e.g. "Returns:")
        match = _GOOGLE_ITEM.match(line.strip())
        if indent == item_indent and match:
            current = found.setdefault(match.group(1).lstrip("*"), [])
            if match.group(2):
                current.append(match.group(2).strip())
        elif indent > item_indent and current is not None:
            current.append(line.strip())
        else:
            break
    return {name: " ".join(words) for name, words in found.items() if words}


def _numpy(lines: list[str]) -> dict[str, str]:
    found: dict[str, list[str]] = {}
    item_indent: int | None = None
    current: list[str] | None = None
    for position, line in enumerate(lines):
        if not line.strip():
            continue
        following = lines[position + 1].strip() if position + 1 < len(lines) else ""
        if following and set(following) == {"-"}:
            break  # the next section's header
        indent = _indent(line)
        if item_indent is None:
            item_indent = indent
        match = _NUMPY_ITEM.match(line.strip())
        if indent == item_indent and match:
            current = found.setdefault(match.group(1), [])
        elif indent > item_indent and current is not None:
            current.append(line.strip())
        elif set(line.strip()) == {"-"}:
            continue
        else:
            break
    return {name: " ".join(words) for name, words in found.items() if words}

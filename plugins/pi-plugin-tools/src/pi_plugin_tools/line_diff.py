"""pi's numbered diff of two texts, built on a port of jsdiff's line diff (same tie-breaking)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class _Part:
    lines: list[str]
    added: bool = False
    removed: bool = False

    @property
    def changed(self) -> bool:
        """Return whether the lines were added or removed."""
        return self.added or self.removed


class _Component:
    """One run of the edit path (jsdiff's change component), linked to the previous run."""

    __slots__ = ("added", "count", "previous", "removed")

    def __init__(self, count: int, added: bool, removed: bool, previous: _Component | None) -> None:
        self.count = count
        self.added = added
        self.removed = removed
        self.previous = previous


class _Path:
    __slots__ = ("last", "old_pos")

    def __init__(self, old_pos: int, last: _Component | None) -> None:
        self.old_pos = old_pos
        self.last = last


MYERS_MAX_EDIT_LENGTH = 2000
"""Beyond this many changed lines the diff falls back to difflib (pure-Python Myers is O(ND))."""


def _extend(path: _Path, step: tuple[bool, bool, int]) -> _Path:
    added, removed, old_inc = step
    last = path.last
    if last is not None and last.added == added and last.removed == removed:
        component = _Component(last.count + 1, added, removed, last.previous)
    else:
        component = _Component(1, added, removed, last)
    return _Path(path.old_pos + old_inc, component)


def _extract_common(path: _Path, new: list[str], old: list[str], diagonal: int) -> int:
    old_pos = path.old_pos
    new_pos = old_pos - diagonal
    common = 0
    while (
        new_pos + 1 < len(new) and old_pos + 1 < len(old) and old[old_pos + 1] == new[new_pos + 1]
    ):
        new_pos += 1
        old_pos += 1
        common += 1
    if common:
        path.last = _Component(common, False, False, path.last)
    path.old_pos = old_pos
    return new_pos


def _myers(old: list[str], new: list[str]) -> list[_Component] | None:
    """jsdiff's Myers diff (same tie-breaking), or None when the edit is too large."""
    old_len, new_len = len(old), len(new)
    best: dict[int, _Path | None] = {0: _Path(-1, None)}
    start = best[0]
    assert start is not None
    new_pos = _extract_common(start, new, old, 0)
    end: _Path | None = start if start.old_pos + 1 >= old_len and new_pos + 1 >= new_len else None
    lowest, highest = -(old_len + new_len + 1), old_len + new_len + 1
    edit_length = 1
    while end is None and edit_length <= min(old_len + new_len, MYERS_MAX_EDIT_LENGTH):
        for diagonal in range(max(lowest, -edit_length), min(highest, edit_length) + 1, 2):
            remove_path, add_path = best.get(diagonal - 1), best.get(diagonal + 1)
            if remove_path is not None:
                best[diagonal - 1] = None
            can_add = add_path is not None and 0 <= add_path.old_pos - diagonal < new_len
            can_remove = remove_path is not None and remove_path.old_pos + 1 < old_len
            if not can_add and not can_remove:
                best[diagonal] = None
                continue
            if not can_remove or (
                can_add
                and remove_path is not None
                and add_path is not None
                and remove_path.old_pos < add_path.old_pos
            ):
                assert add_path is not None
                path = _extend(add_path, (True, False, 0))
            else:
                assert remove_path is not None
                path = _extend(remove_path, (False, True, 1))
            new_pos = _extract_common(path, new, old, diagonal)
            if path.old_pos + 1 >= old_len and new_pos + 1 >= new_len:
                end = path
                break
            best[diagonal] = path
            if path.old_pos + 1 >= old_len:
                highest = min(highest, diagonal - 1)
            if new_pos + 1 >= new_len:
                lowest = max(lowest, diagonal + 1)
        edit_length += 1
    if end is None:
        return None
    components: list[_Component] = []
    component = end.last
    while component is not None:
        components.append(component)
        component = component.previous
    components.reverse()
    return components


def _difflib_parts(old: list[str], new: list[str]) -> list[_Component]:
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    components: list[_Component] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            components.append(_Component(i2 - i1, False, False, None))
            continue
        if i2 > i1:
            components.append(_Component(i2 - i1, False, True, None))
        if j2 > j1:
            components.append(_Component(j2 - j1, True, False, None))
    return components


def _tokens(text: str) -> list[str]:
    # Lines end at "\n" only (str.splitlines would also break on \r, \v, \x1c…), as in jsdiff.
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _diff_parts(old_text: str, new_text: str) -> list[_Part]:
    """Split two texts into runs of equal, removed and added lines, as jsdiff's diffLines."""
    old, new = _tokens(old_text), _tokens(new_text)
    components = _myers(old, new)
    if components is None:
        components = _difflib_parts(old, new)
    parts: list[_Part] = []
    old_pos = new_pos = 0
    for component in components:
        if component.removed:
            lines = old[old_pos : old_pos + component.count]
            old_pos += component.count
        else:
            lines = new[new_pos : new_pos + component.count]
            new_pos += component.count
            if not component.added:
                old_pos += component.count
        parts.append(
            _Part([line.removesuffix("\n") for line in lines], component.added, component.removed)
        )
    return parts


def generate_diff_string(old: str, new: str, context_lines: int = 4) -> tuple[str, int | None]:
    """Return pi's numbered diff (`+12 line`, `-12 line`, ` 12 line`, `...`) and first new line."""
    parts = _diff_parts(old, new)
    width = len(str(max(len(old.split("\n")), len(new.split("\n")))))
    output: list[str] = []
    old_no = new_no = 1
    last_was_change = False
    first_changed: int | None = None

    def context(line: str) -> None:
        nonlocal old_no, new_no
        output.append(f" {str(old_no).rjust(width)} {line}")
        old_no += 1
        new_no += 1

    def skip(count: int) -> None:
        nonlocal old_no, new_no
        output.append(f" {''.rjust(width)} ...")
        old_no += count
        new_no += count

    for i, part in enumerate(parts):
        if part.changed:
            if first_changed is None:
                first_changed = new_no
            for line in part.lines:
                if part.added:
                    output.append(f"+{str(new_no).rjust(width)} {line}")
                    new_no += 1
                else:
                    output.append(f"-{str(old_no).rjust(width)} {line}")
                    old_no += 1
            last_was_change = True
            continue
        raw = part.lines
        trailing_change = i < len(parts) - 1 and parts[i + 1].changed
        if last_was_change and trailing_change:
            if len(raw) <= context_lines * 2:
                for line in raw:
                    context(line)
            else:
                for line in raw[:context_lines]:
                    context(line)
                skip(len(raw) - 2 * context_lines)
                for line in raw[len(raw) - context_lines :]:
                    context(line)
        elif last_was_change:
            for line in raw[:context_lines]:
                context(line)
            if len(raw) > context_lines:
                skip(len(raw) - context_lines)
        elif trailing_change:
            skipped = max(0, len(raw) - context_lines)
            if skipped > 0:
                skip(skipped)
            for line in raw[skipped:]:
                context(line)
        else:
            old_no += len(raw)
            new_no += len(raw)
        last_was_change = False
    return "\n".join(output), first_changed

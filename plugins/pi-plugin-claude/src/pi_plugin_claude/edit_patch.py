"""Claude Code's `structuredPatch`: the unified-diff hunks (3 lines of context) of one edit."""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Any

CONTEXT = 3


def _lines(text: str) -> list[str]:
    """The lines without their endings (a final newline ends the last line; it adds none)."""
    return text.splitlines()


def structured_patch(before: str, after: str) -> list[dict[str, Any]]:
    """The hunks turning `before` into `after`, as Claude Code reports them for Edit."""
    old, new = _lines(before), _lines(after)
    hunks: list[dict[str, Any]] = []
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(CONTEXT):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + line for line in old[i1:i2]]
                continue
            lines += ["-" + line for line in old[i1:i2]]
            lines += ["+" + line for line in new[j1:j2]]
        first, last = group[0], group[-1]
        old_lines, new_lines = last[2] - first[1], last[4] - first[3]
        hunks.append(
            {
                "oldStart": first[1] + 1 - (1 if old_lines == 0 else 0),
                "oldLines": old_lines,
                "newStart": first[3] + 1 - (1 if new_lines == 0 else 0),
                "newLines": new_lines,
                "lines": lines,
            }
        )
    return hunks

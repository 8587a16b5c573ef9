"""The prompt editor's state beyond the buffer: paste markers and the per-project history file."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

PASTE_LINES = 10
PASTE_CHARS = 1000
_MARKER = re.compile(r"\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


class PasteStore:
    """Large pastes become `[paste #N +L lines]` markers, expanded again when the text is sent."""

    def __init__(self) -> None:
        self.pastes: dict[int, str] = {}
        self._next = 1

    def insert_text(self, pasted: str) -> str:
        """Normalise a paste and return what goes into the editor (the text or a marker)."""
        text = pasted.replace("\r\n", "\n").replace("\r", "\n").replace("\t", "    ")
        text = _CONTROL.sub("", text)
        lines = text.count("\n") + 1
        if lines <= PASTE_LINES and len(text) <= PASTE_CHARS:
            return text
        number = self._next
        self._next += 1
        self.pastes[number] = text
        if lines > PASTE_LINES:
            return f"[paste #{number} +{lines} lines]"
        return f"[paste #{number} {len(text)} chars]"

    def expand(self, text: str) -> str:
        """Replace every known marker with its pasted text."""

        def put_back(match: re.Match[str]) -> str:
            return self.pastes.get(int(match.group(1)), match.group(0))

        return _MARKER.sub(put_back, text)

    def marker_before(self, text: str, cursor: int) -> tuple[int, int] | None:
        """Return the span of a marker ending exactly at `cursor` (deleted as one unit)."""
        for match in _MARKER.finditer(text):
            if match.end() == cursor and int(match.group(1)) in self.pastes:
                return match.start(), match.end()
        return None


def history_path(agent_dir: Path, cwd: str) -> Path:
    """The history file for a project: one per working folder, under the agent dir."""
    digest = hashlib.sha1(cwd.encode()).hexdigest()[:12]
    name = re.sub(r"[^A-Za-z0-9]+", "-", cwd).strip("-")[-60:] or "root"
    return agent_dir / "history" / f"{name}-{digest}.txt"


def strip_continuation(text: str, cursor: int) -> tuple[str, int] | None:
    """`\\` right before the cursor plus Enter means a new line: return the edited text."""
    if cursor > 0 and text[cursor - 1] == "\\":
        return text[: cursor - 1] + "\n" + text[cursor:], cursor
    return None

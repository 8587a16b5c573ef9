"""The working row's look: shown or hidden, and the spinner's frames and pace."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DEFAULT_FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
DEFAULT_INTERVAL_MS = 80.0
_CYAN = "\x1b[36m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


@dataclass
class WorkingIndicator:
    """Plugins set it through `ctx.ui`; the live region asks it for the row to draw."""

    visible: bool = True
    frames: tuple[str, ...] = tuple(DEFAULT_FRAMES)
    interval_ms: float = DEFAULT_INTERVAL_MS
    verbatim: bool = False  # a plugin's frames are drawn as given (they carry their own colours)

    def configure(self, frames: Sequence[str] | None, interval_ms: float | None) -> None:
        """Use these frames (an empty list: no indicator) or, with None, the default spinner."""
        self.verbatim = frames is not None
        self.frames = tuple(DEFAULT_FRAMES) if frames is None else tuple(str(f) for f in frames)
        self.interval_ms = interval_ms if interval_ms and interval_ms > 0 else DEFAULT_INTERVAL_MS

    def row(self, message: str, elapsed: float) -> str | None:
        """The row for `message` after `elapsed` seconds; None while hidden."""
        if not self.visible:
            return None
        frame = ""
        if self.frames:
            index = int(elapsed * 1000 / self.interval_ms) % len(self.frames)
            frame = self.frames[index]
        if frame and not self.verbatim:
            frame = f"{_CYAN}{frame}{_RESET}"
        return f"{frame} {_DIM}{message}{_RESET}" if frame else f"{_DIM}{message}{_RESET}"

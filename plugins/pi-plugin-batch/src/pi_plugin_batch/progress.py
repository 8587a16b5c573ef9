"""What the user sees: a live line on a terminal, one line per finished task otherwise."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class Progress:
    """Counts attempts and shows done/total, cost, ETA and each running task's current tool."""

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None) -> None:
        self.total = total
        self.done = done
        self.stream = stream or sys.stderr
        self.live = self.stream.isatty()
        self.cost = 0.0
        self.running: dict[str, str] = {}
        self._start = time.monotonic()
        self._finished_here = 0

    def started(self, name: str) -> None:
        """An attempt started."""
        self.running[name] = "starting"
        self._draw()

    def event(self, task_id: str, event: dict[str, Any]) -> None:
        """A child's JSON event: note the tool each running task is in."""
        kind = event.get("type")
        if kind == "tool_execution_start":
            self._set(task_id, str(event.get("toolName") or "tool"))
        elif kind == "message_start":
            self._set(task_id, "thinking")

    def finished(self, name: str, record: dict[str, Any], spent: float) -> None:
        """An attempt ended with `record`."""
        self.running.pop(name, None)
        self.cost = spent
        if record.get("final"):
            self.done += 1
            self._finished_here += 1
        line = (
            f"{self.done}/{self.total} {name}: {record['status']}"
            + (f" ({record['error_class']})" if record.get("error_class") else "")
            + ("" if record.get("final") else " — will retry")
            + f" ${record['cost']:.4f} {record['wall_s']:.1f}s"
        )
        self._print(line)

    def message(self, text: str) -> None:
        """A line for the user."""
        self._print(text)

    def close(self) -> None:
        """End the live line."""
        if self.live:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _set(self, task_id: str, what: str) -> None:
        for name in self.running:
            if name == task_id or name.startswith(task_id + ".a"):
                self.running[name] = what
        self._draw()

    def _eta(self) -> str:
        if not self._finished_here:
            return "?"
        per = (time.monotonic() - self._start) / self._finished_here
        seconds = int(per * (self.total - self.done))
        return f"{seconds // 60}m{seconds % 60:02d}s"

    def _print(self, line: str) -> None:
        if self.live:
            self.stream.write("\r\x1b[K")
        self.stream.write(line + "\n")
        self.stream.flush()
        self._draw()

    def _draw(self) -> None:
        if not self.live:
            return
        tasks = " ".join(f"{name}:{tool}" for name, tool in list(self.running.items())[:6])
        line = f"{self.done}/{self.total} ${self.cost:.4f} ETA {self._eta()} | {tasks}"
        self.stream.write("\r\x1b[K" + line[:200])
        self.stream.flush()

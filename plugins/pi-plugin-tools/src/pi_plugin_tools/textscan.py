"""Reading a window of lines from a text file of any size in bounded memory.

The `read` tool needs the file's line count, the selected lines' totals, and only the first lines
of the selection (what fits pi's 2,000-line / 50 KB output). The file is decoded in chunks and only
those first lines are kept, so a 1 GB log costs the time to scan it, not its size in memory.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

from pi_core.tools import TruncationResult
from pi_plugin_tools.textfile import UTF16_BOMS
from pi_plugin_tools.truncate import byte_length, truncate_head_lines

CHUNK_BYTES = 1 << 20


@dataclass
class LineWindow:
    """What a scan found: the file's line count and the head of the selected lines."""

    file_lines: int = 0
    head: list[tuple[str | None, int]] = field(default_factory=list)
    """The first selected lines: (text, or None when longer than the byte limit; UTF-8 size)."""
    selected_lines: int = 0
    selected_bytes: int = 0
    """The UTF-8 size of the selected lines joined by LF, as the selection's text would be."""

    def truncation(self, max_lines: int, max_bytes: int) -> TruncationResult:
        """pi's head truncation of the selected text (no line selected: the empty text)."""
        if not self.selected_lines:
            return truncate_head_lines([("", 0)], 1, 0, max_lines, max_bytes)
        return truncate_head_lines(
            self.head, self.selected_lines, self.selected_bytes, max_lines, max_bytes
        )


def scan_lines(
    handle: BinaryIO,
    start: int,
    end: int | None,
    keep_lines: int,
    keep_bytes: int,
    check: Callable[[], None] = lambda: None,
    chunk_bytes: int = CHUNK_BYTES,
) -> LineWindow:
    """Scan lines `start` (0-based) up to `end` (exclusive; None: to the end of the file).

    The text is decoded as pi's `buffer.toString()` does: UTF-16 after its byte-order mark, else
    UTF-8 with U+FFFD for bad bytes (a UTF-8 byte-order mark is kept as U+FEFF). Selected lines
    are kept while fewer than `keep_lines + 1` are kept and those kept use at most `keep_bytes`:
    enough for pi's head truncation to decide. `check` runs between chunks (an abort check).
    """
    window = LineWindow()
    first = handle.read(max(chunk_bytes, 2))  # a byte-order mark is two bytes
    utf16 = first.startswith(UTF16_BOMS)
    decoder = codecs.getincrementaldecoder("utf-16" if utf16 else "utf-8")("replace")
    stop = end if end is not None else float("inf")
    index = 0  # the line being read
    pieces: list[str] = []
    line_bytes = 0
    kept_bytes = 0

    def head_full() -> bool:
        return len(window.head) > keep_lines or kept_bytes > keep_bytes

    def finish_line() -> None:
        nonlocal index, pieces, line_bytes, kept_bytes
        if start <= index < stop:
            window.selected_lines += 1
            if not head_full():
                text = "".join(pieces) if line_bytes <= keep_bytes else None
                kept_bytes += line_bytes + (1 if window.head else 0)
                window.head.append((text, line_bytes))
        index += 1
        pieces, line_bytes = [], 0

    def take(text: str) -> None:
        nonlocal index, line_bytes
        newlines = text.count("\n")
        if index + newlines < start or index >= stop:  # nothing of this text is selected
            index += newlines
            return
        if end is None and index >= start and head_full():  # only totals are needed now
            window.selected_bytes += byte_length(text)
            window.selected_lines += newlines
            index += newlines
            return
        for number, part in enumerate(text.split("\n")):
            if number:
                if start <= index and index + 1 < stop:
                    window.selected_bytes += 1  # the LF between two selected lines
                finish_line()
            if start <= index < stop:
                size = byte_length(part)
                line_bytes += size
                window.selected_bytes += size
                if line_bytes <= keep_bytes and not head_full():
                    pieces.append(part)

    chunk = first
    while chunk:
        take(decoder.decode(chunk))
        check()
        chunk = handle.read(chunk_bytes)
    take(decoder.decode(b"", final=True))
    finish_line()
    window.file_lines = index
    return window

"""Cutting tool output to pi's limits: 2,000 lines or 50 KB, whichever comes first."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from pi_core.tools import TruncationResult

DEFAULT_MAX_LINES = 2000
DEFAULT_MAX_BYTES = 50 * 1024
GREP_MAX_LINE_LENGTH = 500
UNLIMITED_LINES = 2**53 - 1
"""pi's `Number.MAX_SAFE_INTEGER`: the line limit of outputs that are only cut by bytes."""

TruncatedBy = Literal["lines", "bytes"]


def byte_length(text: str) -> int:
    """Return the UTF-8 size of `text` in bytes."""
    return len(text.encode("utf-8", "surrogatepass"))


def _one_decimal(value: float) -> str:
    # JavaScript's toFixed(1) rounds ties away from zero; Python's format rounds them to even.
    return str(Decimal(value).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def format_size(size: int) -> str:
    """Format a byte count as pi does: `512B`, `50.0KB`, `1.5MB`."""
    if size < 1024:
        return f"{size}B"
    if size < 1024 * 1024:
        return f"{_one_decimal(size / 1024)}KB"
    return f"{_one_decimal(size / (1024 * 1024))}MB"


def _untruncated(
    content: str, lines: int, size: int, max_lines: int, max_bytes: int
) -> TruncationResult:
    return TruncationResult(
        content=content,
        truncated=False,
        truncated_by=None,
        total_lines=lines,
        total_bytes=size,
        output_lines=lines,
        output_bytes=size,
        max_lines=max_lines,
        max_bytes=max_bytes,
    )


def _cut(
    kept: list[str],
    used: int,
    truncated_by: TruncatedBy,
    totals: tuple[int, int],
    max_lines: int,
    max_bytes: int,
    last_line_partial: bool = False,
) -> TruncationResult:
    """The result of keeping the lines `kept` (`used` bytes) of a text that did not fit.

    A cut that reached the line limit within the byte limit counts as cut by lines.
    """
    if len(kept) >= max_lines and used <= max_bytes:
        truncated_by = "lines"
    output = "\n".join(kept)
    return TruncationResult(
        content=output,
        truncated=True,
        truncated_by=truncated_by,
        total_lines=totals[0],
        total_bytes=totals[1],
        output_lines=len(kept),
        output_bytes=byte_length(output),
        last_line_partial=last_line_partial,
        max_lines=max_lines,
        max_bytes=max_bytes,
    )


def truncate_head(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> TruncationResult:
    """Keep the first lines that fit; never a partial line (a too-long first line gives none)."""
    lines = content.split("\n")
    head: list[tuple[str | None, int]] = [(line, byte_length(line)) for line in lines[:max_lines]]
    return truncate_head_lines(head, len(lines), byte_length(content), max_lines, max_bytes)


def truncate_head_lines(
    head: Sequence[tuple[str | None, int]],
    total_lines: int,
    total_bytes: int,
    max_lines: int = DEFAULT_MAX_LINES,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> TruncationResult:
    """`truncate_head` on text known by its first lines and its totals.

    `head` holds the first lines as (text, UTF-8 size): every line when the text fits, else at
    least up to the first line that does not; a line's text may be None when it alone is larger
    than `max_bytes` (it is never shown).
    """
    if total_lines <= max_lines and total_bytes <= max_bytes:
        content = "\n".join(text or "" for text, _ in head)
        return _untruncated(content, total_lines, total_bytes, max_lines, max_bytes)
    if head[0][1] > max_bytes:
        return TruncationResult(
            content="",
            truncated=True,
            truncated_by="bytes",
            total_lines=total_lines,
            total_bytes=total_bytes,
            output_lines=0,
            output_bytes=0,
            first_line_exceeds_limit=True,
            max_lines=max_lines,
            max_bytes=max_bytes,
        )
    kept: list[str] = []
    used = 0
    truncated_by: TruncatedBy = "lines"
    for index, (line, line_bytes) in enumerate(head[:max_lines]):
        size = line_bytes + (1 if index > 0 else 0)
        if line is None or used + size > max_bytes:
            truncated_by = "bytes"
            break
        kept.append(line)
        used += size
    return _cut(kept, used, truncated_by, (total_lines, total_bytes), max_lines, max_bytes)


def tail_of_bytes(text: str, max_bytes: int) -> str:
    """Return the end of `text` that fits in `max_bytes`, starting on a whole character."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_bytes:
        return text
    start = len(data) - max_bytes
    while start < len(data) and (data[start] & 0xC0) == 0x80:
        start += 1
    return data[start:].decode("utf-8", "replace")


def truncate_tail(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> TruncationResult:
    """Keep the last lines that fit; the last line alone may be cut (`last_line_partial`)."""
    total_bytes = byte_length(content)
    lines = content.split("\n")
    total_lines = len(lines)
    if total_lines <= max_lines and total_bytes <= max_bytes:
        return _untruncated(content, total_lines, total_bytes, max_lines, max_bytes)
    kept: list[str] = []
    used = 0
    truncated_by: TruncatedBy = "lines"
    last_line_partial = False
    for line in reversed(lines):
        if len(kept) >= max_lines:
            break
        size = byte_length(line) + (1 if kept else 0)
        if used + size > max_bytes:
            truncated_by = "bytes"
            if not kept:
                partial = tail_of_bytes(line, max_bytes)
                kept.append(partial)
                used = byte_length(partial)
                last_line_partial = True
            break
        kept.append(line)
        used += size
    kept.reverse()
    totals = (total_lines, total_bytes)
    return _cut(kept, used, truncated_by, totals, max_lines, max_bytes, last_line_partial)


def truncate_line(line: str, max_chars: int = GREP_MAX_LINE_LENGTH) -> tuple[str, bool]:
    """Shorten one line to `max_chars` with pi's `... [truncated]` marker; say if it was cut."""
    if len(line) <= max_chars:
        return line, False
    return f"{line[:max_chars]}... [truncated]", True

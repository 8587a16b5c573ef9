"""Collecting a command's streamed output in bounded memory, spilling all of it to a temp file."""

from __future__ import annotations

import codecs
import contextlib
import os
import secrets
import tempfile
import weakref
from dataclasses import dataclass
from typing import BinaryIO

from pi_core.tools import TruncationResult
from pi_plugin_tools.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    byte_length,
    truncate_tail,
)


def temp_output_path(prefix: str) -> str:
    """Return a fresh `<tmp>/<prefix>-<16 hex>.log` path, as pi names full-output files."""
    return os.path.join(tempfile.gettempdir(), f"{prefix}-{secrets.token_hex(8)}.log")


_session_logs: weakref.WeakKeyDictionary[object, set[str]] = weakref.WeakKeyDictionary()
"""Full-output files (they hold command output) by the session that wrote them (its
`ctx.events`): several sessions may run in one process (`pi acp`, `pi mcp serve`)."""
_unowned_logs: set[str] = set()
"""Full-output files written with no session named."""


def _logs_of(owner: object | None) -> set[str]:
    if owner is None:
        return _unowned_logs
    return _session_logs.setdefault(owner, set())


def open_private_log(path: str, owner: object | None = None) -> BinaryIO:
    """Create the full-output file readable by its owner only, and remember it for cleanup
    with the session `owner`."""
    handle = os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")
    _logs_of(owner).add(path)
    return handle


def remove_session_logs(owner: object | None = None) -> None:
    """Delete the full-output files of the session `owner` that is ending (None: the files
    written with no session named)."""
    logs = _logs_of(owner)
    for path in list(logs):
        with contextlib.suppress(OSError):
            os.unlink(path)
        logs.discard(path)


@dataclass(frozen=True)
class OutputSnapshot:
    """The tail of the output so far, how it was cut, and where the full output is."""

    content: str
    truncation: TruncationResult
    full_output_path: str | None


class OutputAccumulator:
    """Keeps a decoded tail of the output and, once it is too big, all of it in a temp file."""

    def __init__(
        self,
        max_lines: int = DEFAULT_MAX_LINES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        temp_file_prefix: str = "pi-output",
        owner: object | None = None,
    ) -> None:
        self.max_lines = max_lines
        self.max_bytes = max_bytes
        self.max_rolling_bytes = max(max_bytes * 2, 1)
        self.temp_file_prefix = temp_file_prefix
        self.owner = owner
        """The session (its `ctx.events`) whose end removes the full-output file."""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._raw_chunks: list[bytes] = []
        self._tail = ""
        self._tail_bytes = 0
        self._tail_starts_at_line = True
        self.total_raw_bytes = 0
        self.total_decoded_bytes = 0
        self.total_lines = 1
        self.last_line_bytes = 0
        self._finished = False
        self.temp_file_path: str | None = None
        self._temp_file: BinaryIO | None = None

    def append(self, data: bytes) -> None:
        """Add a chunk of raw output."""
        if self._finished:
            raise RuntimeError("Cannot append to a finished output accumulator")
        self.total_raw_bytes += len(data)
        self._append_text(self._decoder.decode(data))
        if self._temp_file is not None or self._needs_temp_file():
            self._ensure_temp_file()
            assert self._temp_file is not None
            self._temp_file.write(data)
        elif data:
            self._raw_chunks.append(data)

    def finish(self) -> None:
        """Flush the decoder; no more output will come."""
        if self._finished:
            return
        self._finished = True
        self._append_text(self._decoder.decode(b"", final=True))
        if self._needs_temp_file():
            self._ensure_temp_file()

    def snapshot(self, persist_if_truncated: bool = False) -> OutputSnapshot:
        """Return the last lines that fit the limits, and the truncation facts of the whole."""
        tail = truncate_tail(self._snapshot_text(), self.max_lines, self.max_bytes)
        truncated = self.total_lines > self.max_lines or self.total_decoded_bytes > self.max_bytes
        truncated_by = None
        if truncated:
            truncated_by = tail.truncated_by or (
                "bytes" if self.total_decoded_bytes > self.max_bytes else "lines"
            )
        truncation = tail.model_copy(
            update={
                "truncated": truncated,
                "truncated_by": truncated_by,
                "total_lines": self.total_lines,
                "total_bytes": self.total_decoded_bytes,
                "max_lines": self.max_lines,
                "max_bytes": self.max_bytes,
            }
        )
        if persist_if_truncated and truncated:
            self._ensure_temp_file()
        if self._temp_file is not None:
            self._temp_file.flush()
        return OutputSnapshot(tail.content, truncation, self.temp_file_path)

    def close(self) -> None:
        """Close the temp file (it stays on disk for the model to read)."""
        if self._temp_file is not None:
            self._temp_file.close()
            self._temp_file = None

    def _append_text(self, text: str) -> None:
        if not text:
            return
        size = byte_length(text)
        self.total_decoded_bytes += size
        self._tail += text
        self._tail_bytes += size
        if self._tail_bytes > self.max_rolling_bytes * 2:
            self._trim_tail()
        newlines = text.count("\n")
        if newlines == 0:
            self.last_line_bytes += size
        else:
            self.total_lines += newlines
            self.last_line_bytes = byte_length(text[text.rfind("\n") + 1 :])

    def _trim_tail(self) -> None:
        data = self._tail.encode("utf-8", "surrogatepass")
        if len(data) <= self.max_rolling_bytes:
            self._tail_bytes = len(data)
            return
        start = len(data) - self.max_rolling_bytes
        while start < len(data) and (data[start] & 0xC0) == 0x80:
            start += 1
        if start > 0:
            self._tail_starts_at_line = data[start - 1] == 0x0A
        self._tail = data[start:].decode("utf-8", "replace")
        self._tail_bytes = byte_length(self._tail)

    def _snapshot_text(self) -> str:
        if self._tail_starts_at_line:
            return self._tail
        newline = self._tail.find("\n")
        return self._tail if newline == -1 else self._tail[newline + 1 :]

    def _needs_temp_file(self) -> bool:
        return (
            self.total_raw_bytes > self.max_bytes
            or self.total_decoded_bytes > self.max_bytes
            or self.total_lines > self.max_lines
        )

    def _ensure_temp_file(self) -> None:
        if self.temp_file_path is not None:
            return
        self.temp_file_path = temp_output_path(self.temp_file_prefix)
        self._temp_file = open_private_log(self.temp_file_path, self.owner)
        for chunk in self._raw_chunks:
            self._temp_file.write(chunk)
        self._raw_chunks = []

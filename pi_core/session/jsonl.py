"""Reading and writing session JSONL: tolerant reads, one-write appends, atomic rewrites.

Concurrent appends: every entry is one `write()` of a whole line on a descriptor opened with
O_APPEND, under an exclusive lock on the file (`filelock`: flock on POSIX, LockFileEx on
Windows), so two processes appending to one file never interleave half-lines.
"""

from __future__ import annotations

import gc
import json
import os
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic_core

from pi_core.fileio import atomic_write
from pi_core.session.paths import SESSION_FILE_MODE, make_private_dir

RawEntry = dict[str, Any]


class SessionFileError(ValueError):
    """A file that cannot be used as a session (not a session file, unreadable)."""


@dataclass
class ReadResult:
    """The entries of a session file and what was skipped on the way."""

    entries: list[RawEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped_lines: int = 0
    ends_mid_line: bool = False


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_ASCII_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def dumps(entry: RawEntry) -> str:
    """Serialize an entry the way JSON.stringify does (compact, non-ASCII kept)."""
    text = _ENCODER.encode(entry)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: escape them, as JSON.stringify does
        text = _ASCII_ENCODER.encode(entry)
    return text


def encode_line(entry: RawEntry) -> bytes:
    """Encode an entry as one UTF-8 line, newline included (the bytes `dumps` would give).

    pydantic-core's encoder is five times faster than `json`'s and writes the same bytes for
    JSON data, except exponents (`1e-7`, as JSON.stringify writes them, not `1e-07`); a lone
    surrogate, which it refuses, goes through `dumps`.
    """
    try:
        return pydantic_core.to_json(entry) + b"\n"
    except pydantic_core.PydanticSerializationError:
        return (dumps(entry) + "\n").encode("utf-8")


@contextmanager
def gc_paused(*, long_lived: bool = False) -> Iterator[None]:
    """Pause the cyclic GC while building many small objects (it rescans them over and over).

    With `long_lived` (a session's entries and messages, kept for the whole session), the objects
    are moved out of the collector's generations on the way out (`gc.freeze`): otherwise the
    first collections after re-enabling walk every one of them again (0.3 s for 100,000
    messages), and each full collection after that once more. They hold no reference cycles, so
    reference counting still frees them when the session is dropped.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if long_lived:
                gc.freeze()
            gc.enable()


def read_session_file(path: Path) -> ReadResult:
    """Parse every line; skip malformed ones with a warning; require a session header first."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise SessionFileError(f"cannot read session file {path}: {error.strerror}") from None
    with gc_paused(long_lived=True):
        return _parse(path, data)


def _parse_all_at_once(lines: list[bytes]) -> list[RawEntry] | None:
    """Parse every line in one call (twice as fast); None if any line is not a whole object."""
    present = [line for line in lines if line.strip()]
    try:
        parsed = pydantic_core.from_json(b"[" + b",".join(present) + b"]")
    except ValueError:
        return None
    if len(parsed) != len(present) or not all(isinstance(e, dict) for e in parsed):
        return None
    entries: list[RawEntry] = parsed
    return entries


def _parse(path: Path, data: bytes) -> ReadResult:
    result = ReadResult(ends_mid_line=bool(data) and not data.endswith(b"\n"))
    lines = data.split(b"\n")
    fast = _parse_all_at_once(lines)
    if fast is not None:
        result.entries = fast
        return _check_header(path, data, result)
    last_index = len(lines) - 1
    torn_first: bytes | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            entry = json.loads(raw)
            if not isinstance(entry, dict):
                raise ValueError("not a JSON object")
        except ValueError as error:
            if not result.entries and not result.skipped_lines:
                torn_first = raw
            result.skipped_lines += 1
            torn = number - 1 == last_index and result.ends_mid_line
            what = "incomplete last line (interrupted write)" if torn else "malformed line"
            result.warnings.append(f"{path}:{number}: skipped {what}: {error}")
            continue
        result.entries.append(entry)
    if torn_first is not None and result.entries and result.entries[0].get("type") != "session":
        _recover_header(path, torn_first, result)
    return _check_header(path, data, result)


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _recover_header(path: Path, torn: bytes, result: ReadResult) -> None:
    """Rebuild a header torn by a crash during the file's first write, from what survives.

    The id comes from the torn line or the file name (`<time>_<uuid>.jsonl`), the time from the
    torn line or the first entry, the cwd from the torn line; the file itself is not changed.
    """
    text = torn.decode("utf-8", "replace")

    def field(name: str) -> str | None:
        match = re.search(rf'"{name}"\s*:\s*("(?:[^"\\]|\\.)*")', text)
        return json.loads(match.group(1)) if match else None

    name_id = _UUID.search(path.stem)
    entries = result.entries
    header: RawEntry = {
        "type": "session",
        "version": 3 if all("id" in entry for entry in entries) else 1,
        "id": field("id") or (name_id.group(0) if name_id else str(uuid.uuid4())),
        "timestamp": field("timestamp") or entries[0].get("timestamp") or "",
        "cwd": field("cwd") or "",
    }
    entries.insert(0, header)
    result.warnings.append(f"{path}:1: recovered the session header torn by an interrupted write")


def _check_header(path: Path, data: bytes, result: ReadResult) -> ReadResult:
    if not result.entries:
        if data.strip():
            raise SessionFileError(f"{path} is not a pi session file: no readable line")
        return result
    header = result.entries[0]
    if header.get("type") != "session" or not isinstance(header.get("id"), str):
        raise SessionFileError(
            f"{path} is not a pi session file: its first line is not a session header"
        )
    return result


class Appender:
    """Appends whole lines to a session file: O_APPEND, one write per call, under a file lock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._end = -1  # the file's size after our last write (-1: not known)

    def append(self, lines: list[str]) -> None:
        """Write the lines (each becomes one line) in a single write; returns once the OS has it."""
        self.write("".join(line + "\n" for line in lines).encode("utf-8"))

    def write(self, payload: bytes) -> None:
        """Write whole lines (`payload` ends with a newline) in a single write, under the lock."""
        fd = self._open()
        _lock(fd)
        try:
            size = os.fstat(fd).st_size
            # Unless someone else wrote since our last whole line, the file ends with one.
            if size != self._end and self._ends_mid_line(fd, size):
                payload = b"\n" + payload  # never glue a new entry onto a torn line
            written = os.write(fd, payload)
            if written < len(payload):  # a regular file takes it whole unless the disk is full
                view = memoryview(payload)[written:]
                while view:
                    view = view[os.write(fd, view) :]
            self._end = size + len(payload)
        finally:
            _unlock(fd)

    def close(self) -> None:
        """Close the file descriptor (a later append reopens it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self._end = -1

    def _open(self) -> int:
        if self._fd is None:
            make_private_dir(self.path.parent)
            flags = os.O_RDWR | os.O_APPEND | os.O_CREAT
            self._fd = os.open(self.path, flags, SESSION_FILE_MODE)
        return self._fd

    @staticmethod
    def _ends_mid_line(fd: int, size: int) -> bool:
        if size == 0:
            return False
        if hasattr(os, "pread"):
            return os.pread(fd, 1, size - 1) != b"\n"
        os.lseek(fd, size - 1, os.SEEK_SET)  # writes still go to the end (O_APPEND)
        return os.read(fd, 1) != b"\n"


try:  # POSIX: flock directly (the lock filelock takes), 1 µs against filelock's ~6 µs
    import fcntl

    def _lock(fd: int) -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another writer holds it: wait, as filelock does
            from filelock import lock_descriptor

            lock_descriptor(fd, poll_interval=0.005)

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

except ImportError:  # Windows: filelock's LockFileEx

    def _lock(fd: int) -> None:
        from filelock import lock_descriptor

        lock_descriptor(fd, poll_interval=0.005)

    def _unlock(fd: int) -> None:
        from filelock import unlock_descriptor

        unlock_descriptor(fd)


def rewrite_file(path: Path, entries: list[RawEntry], *, mode: int | None = None) -> None:
    """Replace the file's content atomically (temp file + rename) with these entries.

    `mode` as in `atomic_write`: None keeps an existing file's mode; a new file is owner-only.
    """
    make_private_dir(path.parent)
    if mode is None and not path.exists():
        mode = SESSION_FILE_MODE
    with gc_paused():
        content = "".join(dumps(entry) + "\n" for entry in entries)
    atomic_write(path, content, mode=mode)

"""Reading and writing session JSONL: tolerant reads, one-write appends, atomic rewrites.

Concurrent appends: every entry is one `write()` of a whole line on a descriptor opened with
O_APPEND, which the kernel places at the end of the file atomically (on Windows, which emulates
O_APPEND, under an exclusive lock on the file), so two processes appending to one file never
interleave half-lines.
"""

from __future__ import annotations

import gc
import json
import os
import re
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic_core

from pi_core import deep
from pi_core.fileio import atomic_output
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
    text = deep.encode(_ENCODER, entry)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: escape them, as JSON.stringify does
        text = deep.encode(_ASCII_ENCODER, entry)
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


def _each_line(data: bytes) -> Iterator[bytes]:
    """The lines of `data`, one at a time (each freed once parsed, unlike `data.split`'s list)."""
    find = data.find
    start = 0
    end = find(b"\n")
    while end != -1:
        yield data[start:end]
        start = end + 1
        end = find(b"\n", start)
    yield data[start:]


def _parse_whole_lines(lines: Iterable[bytes]) -> list[RawEntry] | None:
    """Parse every line; None at the first one that is not a whole JSON object.

    pydantic-core's parser, line by line, with short strings taken from its string cache, values
    too: the roles, types, model names and stop reasons repeated on every line are then one
    object each (a fifth less memory for a session's entries, and as fast: fewer allocations
    make up for the lookups). A third faster than one parse of the lines joined into an array,
    which costs a copy of the whole file first. `json` takes the lines pydantic-core refuses but
    `json` reads (a lone surrogate escape).
    """
    parse = pydantic_core.from_json
    entries: list[RawEntry] = []
    append = entries.append
    for raw in lines:
        if not raw:
            continue
        try:
            entry = parse(raw, cache_strings=True)
        except ValueError:
            try:
                entry = deep.loads(raw)
            except (ValueError, RecursionError):  # deeper than deep.MAX_DEPTH
                return None
        if type(entry) is not dict:
            return None
        append(entry)
    return entries


def _parse(path: Path, data: bytes) -> ReadResult:
    result = ReadResult(ends_mid_line=bool(data) and not data.endswith(b"\n"))
    whole = _parse_whole_lines(_each_line(data))
    if whole is not None:
        result.entries = whole
        return _check_header(path, data, result)
    lines = data.split(b"\n")
    last_index = len(lines) - 1
    torn_first: bytes | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            try:
                entry = pydantic_core.from_json(raw, cache_strings=True)
            except ValueError:
                entry = deep.loads(raw)  # the lines it takes that pydantic-core does not; its error
            if not isinstance(entry, dict):
                raise ValueError("not a JSON object")
        except (ValueError, RecursionError) as error:
            if not result.entries and not result.skipped_lines:
                torn_first = raw
            result.skipped_lines += 1
            torn = number - 1 == last_index and result.ends_mid_line
            glued = None if torn else _entry_glued_to_torn_line(raw)
            if glued is not None:
                result.warnings.append(
                    f"{path}:{number}: skipped an incomplete line (interrupted write) and kept"
                    " the entry appended after it on the same line"
                )
                result.entries.append(glued)
                continue
            what = "incomplete last line (interrupted write)" if torn else "malformed line"
            result.warnings.append(f"{path}:{number}: skipped {what}: {error}")
            continue
        result.entries.append(entry)
    if torn_first is not None and result.entries and result.entries[0].get("type") != "session":
        _recover_header(path, torn_first, result)
    return _check_header(path, data, result)


_ENTRY_START = b'{"type":"'  # how every line starts, ours and pi's (JSON.stringify order)


_ENTRY_TYPES = frozenset(
    ("session", "message", "thinking_level_change", "model_change", "compaction",
     "branch_summary", "custom", "custom_message", "label", "session_info")
)  # fmt: skip


def _entry_glued_to_torn_line(raw: bytes) -> RawEntry | None:
    """The whole entry another writer appended right after a torn line, without a newline.

    Only called for a line that a newline ends (every append ends with one; a torn line alone
    does not). Only a suffix that starts where that entry starts parses as one JSON object: one
    starting inside the torn part runs into the rest of the line. Inside strings the quotes are
    escaped, so `{"type":"` there is never mistaken for an entry's start.
    """
    start = raw.find(_ENTRY_START, 1)
    while start != -1:
        try:
            entry = json.loads(raw[start:])
        except ValueError:
            pass
        else:
            if isinstance(entry, dict) and entry.get("type") in _ENTRY_TYPES and "id" in entry:
                return entry
        start = raw.find(_ENTRY_START, start + 1)
    return None


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
    """Appends whole lines to a session file: one `write()` per call on an O_APPEND descriptor.

    On POSIX that single write is the whole cost: the kernel positions an O_APPEND write on a
    regular file atomically, so concurrent writers' lines never interleave, and no lock is
    taken (pi takes none either). Windows emulates O_APPEND with a seek before the write, so
    there each write also holds an exclusive lock on the file (LockFileEx through filelock).
    A torn last line (a crash mid-write) is looked for once, when the file is opened: the first
    write then starts with a newline, so a new entry is never glued onto it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._prefix = b""  # a newline that ends a torn last line, before our first write

    def append(self, lines: list[str]) -> None:
        """Write the lines (each becomes one line) in a single write; returns once the OS has it."""
        self.write("".join(line + "\n" for line in lines).encode("utf-8"))

    def write(self, payload: bytes) -> None:
        """Write whole lines (`payload` ends with a newline) in a single write."""
        fd = self._fd if self._fd is not None else self._open()
        if _LOCKED_APPENDS:
            _lock(fd)
        try:
            if self._prefix:
                payload = self._prefix + payload
            written = os.write(fd, payload)
            self._prefix = b""
            if written < len(payload):  # a regular file takes it whole unless the disk is full
                view = memoryview(payload)[written:]
                while view:
                    view = view[os.write(fd, view) :]
        finally:
            if _LOCKED_APPENDS:
                _unlock(fd)

    def close(self) -> None:
        """Close the file descriptor (a later append reopens it, and checks its end again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self._prefix = b""

    def _open(self) -> int:
        make_private_dir(self.path.parent)
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT
        fd = os.open(self.path, flags, SESSION_FILE_MODE)
        try:
            self._prefix = b"\n" if _ends_mid_line(fd) else b""
        except OSError:
            os.close(fd)
            raise
        self._fd = fd
        return fd


def _ends_mid_line(fd: int) -> bool:
    """Whether the file's last byte is something other than a newline (a torn last line)."""
    size = os.fstat(fd).st_size
    if size == 0:
        return False
    if hasattr(os, "pread"):
        return os.pread(fd, 1, size - 1) != b"\n"
    os.lseek(fd, size - 1, os.SEEK_SET)  # writes still go to the end (O_APPEND)
    return os.read(fd, 1) != b"\n"


# Windows emulates O_APPEND with a seek before each write: there two writers need a lock.
_LOCKED_APPENDS = os.name == "nt"


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
    # Line by line into the temporary file: the whole text never sits in memory next to the
    # entries (a 1 MB session held it twice, as lines and joined).
    with atomic_output(path, mode=mode) as handle:
        write = handle.write
        for entry in entries:
            write(encode_line(entry))

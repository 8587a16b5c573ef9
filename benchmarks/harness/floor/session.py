"""Session JSONL: the lines a run appends, and reading a file back into its context."""

from __future__ import annotations

import gc
import json
import os
import time
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any

Message = dict[str, Any]


def now_ms() -> int:
    """Milliseconds since the epoch."""
    return int(time.time() * 1000)


def iso_now() -> str:
    """The current UTC time as pi writes it in sessions."""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


class Session:
    """Session JSONL: a header, then one appended line per entry (none with --no-session)."""

    def __init__(self, agent_dir: str, cwd: str, enabled: bool = True) -> None:
        """Name the file; it is written from the first entry on."""
        self.fd = -1
        self.parent: str | None = None
        self.enabled = enabled
        folder = "--" + cwd.strip("/").replace("/", "-") + "--"
        self.folder = os.path.join(agent_dir, "sessions", folder)
        self.cwd = cwd
        self.path = ""

    def new(self) -> None:
        """Start a new session file (RPC `new_session`)."""
        if self.fd >= 0:
            os.close(self.fd)
        self.fd, self.parent, self.path = -1, None, ""

    def append(self, message: Message) -> None:
        """Append one message entry (creating the file with its header first)."""
        if not self.enabled:
            return
        if self.fd < 0:
            os.makedirs(self.folder, exist_ok=True)
            session_id = str(uuid.uuid4())
            stamp = iso_now().replace(":", "-").replace(".", "-")
            self.path = os.path.join(self.folder, f"{stamp}_{session_id}.jsonl")
            self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            header = {"type": "session", "version": 3, "id": session_id,
                      "timestamp": iso_now(), "cwd": self.cwd}  # fmt: skip
            os.write(self.fd, json.dumps(header).encode() + b"\n")
        entry_id = uuid.uuid4().hex[:8]
        entry = {"type": "message", "id": entry_id, "parentId": self.parent,
                 "timestamp": iso_now(), "message": message}  # fmt: skip
        os.write(self.fd, json.dumps(entry).encode() + b"\n")
        self.parent = entry_id


def json_parser() -> Callable[[bytes], Any]:
    """The fastest JSON parser at hand: pydantic-core's (keys interned), else `json`'s."""
    try:
        from pydantic_core import from_json
    except ImportError:
        return json.loads
    return partial(from_json, cache_strings="keys")


def parse_lines(data: bytes) -> list[Any]:
    """Every non-empty line of JSONL, parsed, the GC paused while the objects pile up."""
    parse = json_parser()
    gc.disable()
    try:
        return [parse(line) for line in data.split(b"\n") if line]
    finally:
        gc.enable()


def check_lines(lines: list[bytes]) -> None:
    """Parse every line (a broken one raises), keeping nothing."""
    parse = json_parser()
    for line in lines:
        parse(line)


def open_context(path: str) -> list[Message]:
    """Read and parse a session file and build its context: the messages on the current branch."""
    with open(path, "rb") as handle:
        entries = parse_lines(handle.read())[1:]
    if entries and "id" not in entries[-1]:  # version 1: no tree, the file order is the branch
        return [e["message"] for e in entries if e.get("type") == "message"]
    by_id = {entry["id"]: entry for entry in entries}
    branch = []
    entry = entries[-1] if entries else None
    while entry is not None:
        branch.append(entry)
        entry = by_id.get(entry.get("parentId"))
    return [e["message"] for e in reversed(branch) if e.get("type") == "message"]

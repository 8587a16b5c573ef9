"""Listing sessions for the resume picker: name, first message, counts, times."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_core import deep
from pi_core.session.ids import iso_to_ms
from pi_core.session.paths import default_session_dir, sessions_root


@dataclass(frozen=True)
class SessionInfo:
    """A summary of one session file."""

    path: Path
    id: str
    cwd: str
    name: str | None
    parent_session_path: str | None
    created: datetime
    modified: datetime
    message_count: int
    first_message: str
    all_messages_text: str


def _text_of(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            block.get("text", "")
            for block in content
            if isinstance(block, dict) and block.get("type") == "text"
        )
    return ""


def _from_ms(millis: int) -> datetime:
    return datetime.fromtimestamp(millis / 1000, UTC)


def read_session_info(path: Path) -> SessionInfo | None:
    """Summarize a session file; None if it is not one."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        mtime = path.stat().st_mtime
    except OSError:
        return None
    entries = []
    for line in lines:
        try:
            entry = deep.loads(line)
        except (ValueError, RecursionError):  # RecursionError: deeper than deep.MAX_DEPTH
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    if not entries or entries[0].get("type") != "session":
        return None
    header = entries[0]
    name: str | None = None
    count, first, texts, last_activity = 0, "", [], 0
    for entry in entries[1:]:
        if entry.get("type") == "session_info":
            name = (entry.get("name") or "").strip() or None
        if entry.get("type") != "message" or not isinstance(entry.get("message"), dict):
            continue
        count += 1
        message = entry["message"]
        if message.get("role") not in ("user", "assistant") or "content" not in message:
            continue
        stamp = message.get("timestamp")
        activity = stamp if isinstance(stamp, int) else iso_to_ms(entry.get("timestamp", ""))
        last_activity = max(last_activity, activity)
        text = _text_of(message)
        if not text:
            continue
        texts.append(text)
        if not first and message.get("role") == "user":
            first = text
    created_ms = iso_to_ms(header.get("timestamp", ""))
    if last_activity:
        modified = _from_ms(last_activity)
    elif created_ms:
        modified = _from_ms(created_ms)
    else:
        modified = datetime.fromtimestamp(mtime, UTC)
    return SessionInfo(
        path=path,
        id=str(header.get("id")),
        cwd=str(header.get("cwd") or ""),
        name=name,
        parent_session_path=header.get("parentSession"),
        created=_from_ms(created_ms),
        modified=modified,
        message_count=count,
        first_message=first or "(no messages)",
        all_messages_text=" ".join(texts),
    )


def list_sessions(cwd: str, session_dir: Path | None = None) -> list[SessionInfo]:
    """Return the sessions of `cwd`, most recently active first."""
    folder = session_dir or default_session_dir(cwd)
    infos = [read_session_info(p) for p in sorted(folder.glob("*.jsonl"))]
    return sorted((i for i in infos if i), key=lambda i: i.modified, reverse=True)


def list_all_sessions(agent: Path | None = None) -> list[SessionInfo]:
    """Return the sessions of every project, most recently active first."""
    root = sessions_root(agent)
    if not root.is_dir():
        return []
    infos = [read_session_info(p) for p in sorted(root.glob("*/*.jsonl"))]
    return sorted((i for i in infos if i), key=lambda i: i.modified, reverse=True)

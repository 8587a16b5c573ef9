"""Migrating a session rewrites it line by line: the same bytes, never the whole text in memory."""

from __future__ import annotations

import shutil
import stat
import tracemalloc
from pathlib import Path

from pi_core.session.jsonl import encode_line, read_session_file, rewrite_file
from pi_core.session.manager import SessionManager
from pi_core.session.migrate import migrate_entries

LARGE = Path(__file__).parents[1] / "fixtures" / "sessions" / "large-session.jsonl"


def test_the_rewrite_writes_each_entry_as_encode_line_does(tmp_path: Path) -> None:
    entries = read_session_file(LARGE).entries
    assert migrate_entries(entries)
    target = tmp_path / "migrated.jsonl"
    rewrite_file(target, entries)
    assert target.read_bytes() == b"".join(encode_line(entry) for entry in entries)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # a new session file is owner-only


def test_opening_a_version_1_session_rewrites_it_as_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    copy = folder / "old.jsonl"
    shutil.copyfile(LARGE, copy)
    copy.chmod(0o640)
    manager = SessionManager.open(copy)
    assert copy.read_bytes() == b"".join(encode_line(entry) for entry in manager.get_raw_entries())
    assert stat.S_IMODE(copy.stat().st_mode) == 0o640  # an existing file keeps its mode
    assert not [p for p in folder.iterdir() if p.name != copy.name]  # no temporary file left


def test_the_rewrite_never_holds_the_whole_text(tmp_path: Path) -> None:
    entries = read_session_file(LARGE).entries
    migrate_entries(entries)
    size = sum(len(encode_line(entry)) for entry in entries)
    assert size > 900_000
    tracemalloc.start()
    try:
        rewrite_file(tmp_path / "migrated.jsonl", entries)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the file's write buffer and one line at a time; building the text first took twice `size`
    assert peak < size * 1.3, (peak, size)

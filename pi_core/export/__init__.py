"""HTML export of a session: one self-contained page (`pi --export`, `/export`, RPC `export_html`).

Markdown and code are rendered here, in Python, within a budget; the page carries a small script
for the tree sidebar, toggles and deep links and for the markdown past the budget, loads nothing
from the network, and keeps session content inert.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pi_core.export.page import ToolInfo
    from pi_core.export.scan import ScannedSession
    from pi_core.session.manager import SessionManager

__all__ = [
    "ExportError",
    "ExportResult",
    "default_html_name",
    "export_branch_to_jsonl",
    "export_file_to_html",
    "export_session_to_html",
]


class ExportError(Exception):
    """An export that cannot be done; the message says why."""


@dataclass
class ExportResult:
    """Where the page was written, and what was skipped while reading the session."""

    path: Path
    warnings: list[str] = field(default_factory=list)


def default_html_name(session_file: str | os.PathLike[str]) -> str:
    """pi's default output name: `pi-session-<session file name without .jsonl>.html`."""
    name = os.path.basename(os.fspath(session_file))
    return f"pi-session-{name.removesuffix('.jsonl')}.html"


def export_file_to_html(
    session_file: str | os.PathLike[str], output: str | os.PathLike[str] | None = None
) -> ExportResult:
    """Export a session file (every branch) to HTML; the file itself is never changed."""
    from pi_core.export.scan import scan_lines
    from pi_core.session.entries import CURRENT_SESSION_VERSION

    source = Path(session_file).expanduser()
    if not source.is_file():
        raise ExportError(f"File not found: {source}")
    try:
        original = source.read_bytes()
    except OSError as error:
        raise ExportError(f"Cannot read {source}: {error.strerror or error}") from None
    scanned = scan_lines(original, current_version=CURRENT_SESSION_VERSION)
    warnings: list[str] = []
    if scanned is None:  # torn lines, an old version: read, repair and migrate it in memory
        jsonl, warnings = _repaired_jsonl(source)
        scanned = scan_lines(jsonl, current_version=CURRENT_SESSION_VERSION)
        assert scanned is not None, "entries written by dumps() always scan"
    if not scanned.light:
        raise ExportError(f"Nothing to export: {source} has no entries")
    target = Path(output) if output is not None else Path(default_html_name(source))
    _write(target, scanned, None, original, source.name, None, None)
    return ExportResult(target, warnings)


def _repaired_jsonl(source: Path) -> tuple[bytes, list[str]]:
    """The session as pi shows it (skipped lines, migrated) re-encoded as JSONL, and warnings."""
    from pi_core.session.jsonl import SessionFileError, dumps, read_session_file
    from pi_core.session.migrate import migrate_entries

    try:
        read = read_session_file(source)
    except SessionFileError as error:
        raise ExportError(str(error)) from None
    if not read.entries:
        raise ExportError(f"Nothing to export: {source} is empty")
    if len(read.entries) < 2:
        raise ExportError(f"Nothing to export: {source} has no entries")
    migrate_entries(read.entries)  # in memory only, as old files are shown as pi shows them
    jsonl = "".join(dumps(entry) + "\n" for entry in read.entries)
    return jsonl.encode("utf-8", "replace"), list(read.warnings)


def export_session_to_html(
    manager: SessionManager,
    output: str | os.PathLike[str] | None = None,
    *,
    system_prompt: str | None = None,
    tools: list[ToolInfo] | None = None,
) -> ExportResult:
    """Export a live session at its current leaf, with its system prompt and tools."""
    from pi_core.export.scan import scan_lines
    from pi_core.session.jsonl import dumps

    if not manager.is_persisted() or manager.session_file is None:
        raise ExportError("Cannot export in-memory session to HTML")
    if not manager.session_file.exists():
        raise ExportError("Nothing to export yet - start a conversation first")
    raw = manager.get_raw_entries()
    jsonl = "".join(dumps(entry) + "\n" for entry in raw).encode("utf-8", "replace")
    scanned = scan_lines(jsonl, current_version=0)
    if scanned is None:
        raise ExportError("Nothing to export yet - start a conversation first")
    session_file = manager.session_file
    target = Path(output) if output is not None else Path(default_html_name(session_file))
    leaf = manager.get_leaf_id()
    _write(target, scanned, leaf, jsonl, session_file.name, system_prompt, tools)
    return ExportResult(target, list(manager.warnings))


def export_branch_to_jsonl(manager: SessionManager, output: str | os.PathLike[str]) -> Path:
    """Write the current branch as a linear session file (parent ids re-chained, new header)."""
    from pi_core.export.tree import SessionTree
    from pi_core.fileio import atomic_write
    from pi_core.session.entries import CURRENT_SESSION_VERSION
    from pi_core.session.ids import iso_now
    from pi_core.session.jsonl import dumps

    target = Path(output).expanduser().resolve()
    header: dict[str, Any] = {
        "type": "session",
        "version": CURRENT_SESSION_VERSION,
        "id": manager.session_id,
        "timestamp": iso_now(),
        "cwd": manager.cwd,
    }
    lines = [dumps(header)]
    tree = SessionTree.build(manager.get_raw_entries(), manager.get_leaf_id())
    previous: str | None = None
    for entry_id in tree.path_to(manager.get_leaf_id()):
        lines.append(dumps({**tree.by_id[entry_id], "parentId": previous}))
        previous = entry_id
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, "".join(line + "\n" for line in lines))
    except OSError as error:
        raise ExportError(f"Cannot write {target}: {error.strerror or error}") from None
    return target


def _write(
    target: Path,
    scanned: ScannedSession,
    leaf_id: str | None,
    original: bytes,
    file_name: str,
    system_prompt: str | None,
    tools: list[ToolInfo] | None,
) -> None:
    from pi_core.export.page import PageInput, write_page
    from pi_core.export.tree import SessionTree
    from pi_core.fileio import atomic_output
    from pi_core.session.jsonl import gc_paused

    with gc_paused():
        tree = SessionTree.build([scanned.header, *scanned.light], leaf_id, scanned.row_texts)
        if not tree.entries:
            raise ExportError("Nothing to export yet - start a conversation first")
        page = PageInput(
            tree=tree,
            scanned=scanned,
            original=original,
            file_name=file_name,
            system_prompt=system_prompt,
            tools=tools,
            home=os.path.expanduser("~"),
        )
        if target.is_dir():
            raise ExportError(f"Cannot write {target}: it is a folder")
        try:
            with atomic_output(target) as out:
                write_page(page, out)
        except OSError as error:
            raise ExportError(f"Cannot write {target}: {error.strerror or error}") from None

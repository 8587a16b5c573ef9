"""Compatibility with pi 0.73.1 both ways, against fixtures from fixtures/generate_pi_fixtures.py.

pi opened the shared v1 sessions and answered get_messages; pi wrote a session (tool call, name,
label, compaction, branch) against a loopback fake server; pi read a session written here.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pi_core.session import SessionManager

FIXTURES = Path(__file__).parent / "fixtures"
SESSIONS = Path(__file__).resolve().parents[1] / "fixtures" / "sessions"


def load_gz_json(path: Path) -> Any:
    return json.loads(gzip.decompress(path.read_bytes()))


def context_wire(manager: SessionManager) -> list[dict[str, Any]]:
    return [m.to_wire() for m in manager.build_session_context().messages]


def skeleton(lines: list[dict[str, Any]]) -> list[tuple[list[str], dict[str, Any]]]:
    """Entries with ids renamed in order of appearance: comparable across random ids."""
    names: dict[str, str] = {}
    result = []
    for entry in lines:
        entry = dict(entry)
        for key in ("id", "parentId", "firstKeptEntryId", "targetId", "fromId"):
            if isinstance(entry.get(key), str):
                entry[key] = names.setdefault(entry[key], f"#{len(names)}")
        result.append((list(entry), entry))
    return result


@pytest.mark.parametrize("name", ["before-compaction", "large-session"])
def test_shared_v1_sessions_give_pi_s_messages_and_migrate_like_pi(
    name: str, tmp_path: Path
) -> None:
    copy = tmp_path / f"{name}.jsonl"
    shutil.copy(SESSIONS / f"{name}.jsonl", copy)

    manager = SessionManager.open(copy)

    assert context_wire(manager) == load_gz_json(FIXTURES / f"{name}.pi-messages.json.gz")
    ours = [json.loads(line) for line in copy.read_text().splitlines()]
    theirs = [
        json.loads(line)
        for line in gzip.decompress((FIXTURES / f"{name}.pi-migrated.jsonl.gz").read_bytes())
        .decode()
        .splitlines()
    ]
    assert ours[0]["version"] == 3
    assert skeleton(ours[1:]) == skeleton(theirs[1:])  # same entries, fields and field order


def test_a_session_pi_wrote_opens_with_the_same_context(tmp_path: Path) -> None:
    copy = tmp_path / "written-by-pi.jsonl"
    shutil.copy(FIXTURES / "written-by-pi.jsonl", copy)

    manager = SessionManager.open(copy)

    expected = json.loads((FIXTURES / "written-by-pi.pi-messages.json").read_text())
    assert context_wire(manager) == expected
    assert manager.get_session_name() == "fixture session"
    first_user = next(
        e for e in manager.get_entries() if e.type == "message" and e.message.role == "user"
    )
    assert manager.get_label(first_user.id) == "checkpoint"
    types = [e.type for e in manager.get_entries()]
    assert {"compaction", "label", "session_info", "model_change"} <= set(types)
    branch_points = [e for e in manager.get_entries() if len(manager.get_children(e.id)) > 1]
    assert len(branch_points) == 1
    assert copy.read_text() == (FIXTURES / "written-by-pi.jsonl").read_text()  # v3: no rewrite


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_pi_fixtures", FIXTURES / "generate_pi_fixtures.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_session_written_here_reads_the_same_in_pi(tmp_path: Path) -> None:
    pi_messages = json.loads((FIXTURES / "written-here.pi-messages.json").read_text())
    copy = tmp_path / "written-here.jsonl"
    shutil.copy(FIXTURES / "written-here.jsonl", copy)
    assert context_wire(SessionManager.open(copy)) == pi_messages

    # and the writer still writes that shape today (ids and times aside)
    fresh = _generator().build_written_here(tmp_path / "fresh")
    now = [json.loads(line) for line in fresh.read_text().splitlines()]
    then = [json.loads(line) for line in (FIXTURES / "written-here.jsonl").read_text().splitlines()]

    def without_times(lines: list[dict[str, Any]]) -> list[Any]:
        stripped = [{k: v for k, v in e.items() if k not in ("timestamp",)} for e in lines[1:]]
        return skeleton(stripped)

    assert without_times(now) == without_times(then)
    assert context_wire(SessionManager.open(fresh)) == pi_messages

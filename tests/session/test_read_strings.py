"""Reading a session file: a value repeated on every line becomes one string object."""

from __future__ import annotations

from pathlib import Path

from pi_core.session.jsonl import read_session_file

LARGE = Path(__file__).parents[1] / "fixtures" / "sessions" / "large-session.jsonl"


def test_values_repeated_on_every_line_are_read_as_one_string() -> None:
    entries = read_session_file(LARGE).entries
    messages = [e["message"] for e in entries if e.get("type") == "message"]
    roles = {id(m["role"]) for m in messages}
    assert len(messages) > 900 and len(roles) == len({m["role"] for m in messages})
    kinds = {id(e["type"]) for e in entries[1:]}
    assert len(kinds) == len({e["type"] for e in entries[1:]})

"""Our `pi --mode json` prints pi 0.73.1's stream events for Gemini and Vertex responses (a
thought, text, one or two function calls), in pi's order (`fixtures/vs_pi/record_pi.py`
records pi's). Each `assistantMessageEvent` is compared without its racy `partial`, the clock's
`timestamp` and the tool calls' generated `id`s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from google_vs_pi import CASES, EVENT_SCRIPTS, run_json

from pi_core.testing import console_script

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "vs_pi"
IGNORED = {"timestamp", "id", "partial"}


def stream_events(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each message_update's assistantMessageEvent, without the ignored fields."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in IGNORED}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return [strip(e["assistantMessageEvent"]) for e in lines if e["type"] == "message_update"]


@pytest.mark.parametrize(("case", "script"), [(c, s) for c in CASES for s in EVENT_SCRIPTS])
def test_same_stream_events_as_pi(case: str, script: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    text = (FIXTURES / f"{case}.{script}.events.ndjson").read_text()
    theirs = [json.loads(line) for line in text.splitlines()]
    mine = run_json([pi], CASES[case], script, tmp_path)
    assert [e["type"] for e in mine] == [e["type"] for e in theirs]
    assert stream_events(mine) == stream_events(theirs)

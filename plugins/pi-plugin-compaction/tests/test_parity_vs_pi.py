"""Our compaction against pi 0.73.1's, recorded on the same sessions and scripted answers.

fixtures/record_pi_compaction.py recorded `<scenario>.pi.json` by running pi in RPC mode; here
our `pi` runs the same scenario and must store the same compaction and send the same transcript.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compaction_scenarios import SCENARIOS, run_compact

from pi_core.testing import console_script

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def compared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(ours, pi's) for one scenario."""
    name = request.param
    pi = console_script("pi")
    ours = run_compact([pi], SCENARIOS[name](), tmp_path_factory.mktemp(name))
    theirs = json.loads((FIXTURES / f"{name}.pi.json").read_text())
    return ours, theirs


def _compaction(outcome: dict[str, Any]) -> dict[str, Any]:
    entries = [e for e in outcome["appended"] if e["type"] == "compaction"]
    assert len(entries) == 1
    return entries[0]


def test_the_compact_response_matches(compared: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ours, theirs = compared
    assert theirs["response"]["success"] is True
    assert ours["response"]["success"] is True, ours["response"]
    for field in ("summary", "firstKeptEntryId", "tokensBefore", "details"):
        assert ours["response"]["data"][field] == theirs["response"]["data"][field], field


def test_the_stored_entry_matches(compared: tuple[dict[str, Any], dict[str, Any]]) -> None:
    ours, theirs = _compaction(compared[0]), _compaction(compared[1])
    for field in ("summary", "firstKeptEntryId", "tokensBefore", "details", "fromHook"):
        assert ours[field] == theirs[field], field
    assert ours["fromHook"] is False  # so later compactions carry its file lists, as pi's do


def test_the_requests_send_the_same_transcript(
    compared: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    ours, theirs = compared
    assert len(ours["requests"]) == len(theirs["requests"]) >= 1
    for mine, pis in zip(ours["requests"], theirs["requests"], strict=True):
        assert mine == pis  # conversation, previous summary, focus, max tokens


def test_get_messages_starts_with_the_summary(
    compared: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    ours, theirs = compared
    assert ours["firstMessage"]["role"] == theirs["firstMessage"]["role"] == "compactionSummary"
    assert ours["firstMessage"]["summary"] == theirs["firstMessage"]["summary"]
    assert ours["firstMessage"]["tokensBefore"] == theirs["firstMessage"]["tokensBefore"]


def test_the_scenarios_cover_what_they_claim() -> None:
    """plain: one request; split turn: two, with file lists; update: a previous summary."""
    recorded = {n: json.loads((FIXTURES / f"{n}.pi.json").read_text()) for n in SCENARIOS}
    assert len(recorded["plain"]["requests"]) == 1
    split = recorded["split-turn"]
    assert len(split["requests"]) == 2
    assert "**Turn Context (split turn):**" in split["response"]["data"]["summary"]
    assert split["response"]["data"]["details"]["readFiles"]
    assert split["response"]["data"]["details"]["modifiedFiles"]
    # the long tool result was cut, and the `!!` command left out
    transcript = "".join(r["conversation"] for r in split["requests"])
    assert "more characters truncated]" in transcript
    assert "hidden-output" not in transcript
    update = recorded["update"]["requests"][0]
    assert update["previousSummary"] == "## Goal\nThe previous summary."
    assert update["additionalFocus"] == "focus on new.py"

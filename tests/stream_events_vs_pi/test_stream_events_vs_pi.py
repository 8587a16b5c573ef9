"""Our `pi --mode json` prints pi 0.73.1's stream events, in pi's order, for the same scripts.

pi prints each event's `partial` message some time after the provider pushed the event (its
stream is an async queue the agent loop drains), so a partial shows whatever had arrived by then;
the test compares each `assistantMessageEvent` without its `partial`, and the partial's usage only
where pi's is settled (see `test_anthropic_usage_from_message_start`).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.fake_home import our_pi
from tests.stream_events_vs_pi.scenarios import PROVIDER_KEYS, SCRIPTS, run

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"

IGNORED = {"timestamp", "id", "partial"}
"""Left out of every compared event: `timestamp` is the clock's, `id` is a tool call's random id
(the fake makes a new one per run) and `partial` is racy in pi's output (see the module doc)."""


def pi_lines(key: str, script: str) -> list[dict[str, Any]]:
    """What pi printed for the script, as recorded by record_pi.py."""
    text = (FIXTURES / f"{key}.{script}.events.ndjson").read_text()
    return [json.loads(line) for line in text.splitlines()]


def stream_events(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each message_update's assistantMessageEvent, without the ignored fields."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in IGNORED}
        return value

    return [strip(e["assistantMessageEvent"]) for e in lines if e["type"] == "message_update"]


def ours(key: str, script: str) -> list[dict[str, Any]]:
    """What our CLI prints for the script."""
    with tempfile.TemporaryDirectory() as root:
        return run(our_pi(), key, script, Path(root))


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("key", PROVIDER_KEYS)
def test_same_stream_events_as_pi(key: str, script: str) -> None:
    mine = ours(key, script)
    theirs = pi_lines(key, script)
    assert [e["type"] for e in mine] == [e["type"] for e in theirs]
    assert stream_events(mine) == stream_events(theirs)


@pytest.mark.parametrize("script", SCRIPTS)
def test_anthropic_usage_from_message_start(script: str) -> None:
    """While the content streams, the partial's usage is `message_start`'s, totals included."""
    first = next(e for e in ours("anthropic", script) if e["type"] == "message_update")
    recorded = next(e for e in pi_lines("anthropic", script) if e["type"] == "message_update")
    usage = recorded["assistantMessageEvent"]["partial"]["usage"]
    assert (usage["output"], usage["totalTokens"]) == (1, 11)  # message_start's, as sent
    assert first["assistantMessageEvent"]["partial"]["usage"] == usage

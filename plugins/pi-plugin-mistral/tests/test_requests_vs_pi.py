"""Our `pi` sends Mistral what pi 0.73.1 sends, request for request: the same path, the same
body with its keys in the same order, the same content and auth headers (`record_pi.py` recorded
pi's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mistral_fake import pi_command, run_pi
from mistral_scenarios import SCENARIOS

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "requests"
SAME_HEADERS = ("content-type", "accept", "authorization")
"""Headers that must match; `user-agent` names each client, `x-affinity` is each run's session
id (checked apart)."""


def _schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The tool schema's shape: keys sorted, descriptions (our tools' own words) left out."""
    properties = {
        name: {k: v for k, v in sorted(spec.items()) if k != "description"}
        for name, spec in sorted((schema.get("properties") or {}).items())
    }
    return {**dict(sorted(schema.items())), "properties": properties}


def normalized(body: str) -> str:
    """The body's JSON with the system prompt and tool descriptions (which differ by design)
    replaced; key order is kept, so the result compares the bytes pi's SDK writes."""
    data = json.loads(body)
    for message in data["messages"]:
        if message["role"] == "system":
            message["content"] = "<system prompt>"
    for tool in data.get("tools", []):
        tool["function"]["description"] = "<description>"
        tool["function"]["parameters"] = _schema(tool["function"]["parameters"])
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@pytest.mark.parametrize("key", sorted(SCENARIOS))
def test_requests_match_pi(key: str, tmp_path: Path) -> None:
    pi = pi_command()
    scenario = SCENARIOS[key]
    recorded = json.loads((FIXTURES / f"{key}.json").read_text())
    command = [pi, "--model", f"mistral/{scenario.model}"]
    done, ours = run_pi(command, list(scenario.args), scenario.answers(), tmp_path)
    assert done.returncode == 0, done.stderr + done.stdout
    assert [r["path"] for r in ours] == [r["path"] for r in recorded]
    assert [normalized(r["body"]) for r in ours] == [normalized(r["body"]) for r in recorded]
    for mine, theirs in zip(ours, recorded, strict=True):
        assert {h: mine["headers"].get(h) for h in SAME_HEADERS} == {
            h: theirs["headers"].get(h) for h in SAME_HEADERS
        }
    # the session id, the same on every request of the run
    assert len({r["headers"]["x-affinity"] for r in recorded}) == 1
    assert len({r["headers"]["x-affinity"] for r in ours}) == 1

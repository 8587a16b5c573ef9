"""Our `pi` sends what pi 0.73.1 sends, body for body, per provider and script (see `record_pi.py`
for how the fixtures were recorded)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.fake_home import our_pi
from tests.requests_vs_pi.scenarios import PROVIDERS, run, scripts_for

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SYSTEM = "<system prompt>"
"""The system prompt's text differs by design (another agent's prompt): only where it goes and
how it is marked for caching is compared."""
DESCRIBED = "<description>"
"""Tool and parameter descriptions are our tools' own wording; the schema's shape is compared."""
CALL_ID = "<call id>"
"""The fake makes a random tool-call id per run."""


def _text(value: Any) -> Any:
    """A system prompt's content, string or text blocks, with the text replaced."""
    if isinstance(value, str):
        return SYSTEM
    return [{**block, "text": SYSTEM} for block in value]


def _schema(schema: dict[str, Any]) -> dict[str, Any]:
    properties = {
        name: {**spec, "description": DESCRIBED} if "description" in spec else spec
        for name, spec in (schema.get("properties") or {}).items()
    }
    return {**schema, "properties": properties}


def normalized(body: dict[str, Any]) -> dict[str, Any]:
    """`body` with only the fields that must differ replaced by placeholders."""
    body = copy.deepcopy(body)
    if "system" in body:
        body["system"] = _text(body["system"])
    for message in body.get("messages", []):
        if message.get("role") in ("system", "developer"):
            message["content"] = _text(message["content"])
        for call in message.get("tool_calls") or []:
            call["id"] = CALL_ID
        if message.get("role") == "tool":
            message["tool_call_id"] = CALL_ID
    for tool in body.get("tools", []):
        function = tool.get("function", tool)
        function["description"] = DESCRIBED
        for key in ("parameters", "input_schema"):
            if key in function:
                function[key] = _schema(function[key])
    return body


CASES = [(key, script) for key in sorted(PROVIDERS) for script in scripts_for(PROVIDERS[key])]


@pytest.mark.parametrize(("provider", "script"), CASES)
def test_request_bodies_match_pi(provider: str, script: str, tmp_path: Path) -> None:
    recorded = json.loads((FIXTURES / f"{provider}.{script}.json").read_text())
    ours = run(our_pi(), PROVIDERS[provider], script, tmp_path)
    assert [normalized(b) for b in ours] == [normalized(b) for b in recorded]

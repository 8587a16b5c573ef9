"""Our `pi -p` sends Bedrock what pi 0.73.1 sends, request for request and key for key (see
`record_pi.py`): catalog models, the base URL moved to the loopback fake in models.json. The
`tool` script is the end-to-end tool loop: the fake asks for `read`, the file's text reaches the
next request, and the answer is printed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from bedrock_scenarios import SCRIPTS, run

from pi_core.testing import console_script

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pi_requests"
SYSTEM = "<system prompt>"
"""The system prompt's text differs by design (another agent's prompt): where it goes and how it
is marked for caching are compared."""
DESCRIBED = "<description>"
"""Tool and parameter descriptions are our tools' own wording; the schema's shape is compared."""


def normalized(request: dict[str, Any]) -> str:
    """The request as JSON text in its key order, the fields that must differ replaced."""
    request = copy.deepcopy(request)
    body = request["body"]
    body["system"] = [
        {**block, "text": SYSTEM} if "text" in block else block for block in body["system"]
    ]
    for tool in body.get("toolConfig", {}).get("tools", []):
        spec = tool["toolSpec"]
        spec["description"] = DESCRIBED
        for prop in spec["inputSchema"]["json"].get("properties", {}).values():
            if "description" in prop:
                prop["description"] = DESCRIBED
        # the schema is the tool's own: its content is compared, not the order of its keys
        spec["inputSchema"]["json"] = json.loads(
            json.dumps(spec["inputSchema"]["json"], sort_keys=True)
        )
    return json.dumps(request, indent=1)


@pytest.mark.parametrize("script", SCRIPTS)
def test_requests_match_pi(script: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    recorded = json.loads((FIXTURES / f"{script}.json").read_text())
    ours = run([pi], script, tmp_path)
    assert [normalized(r) for r in ours] == [normalized(r) for r in recorded]
    if script == "tool":
        result = ours[1]["body"]["messages"][2]["content"][0]["toolResult"]
        assert result["content"] == [{"text": "hello\n"}]

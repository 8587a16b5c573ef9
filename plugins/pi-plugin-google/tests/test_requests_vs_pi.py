"""Our `pi` sends what pi 0.73.1 sends to the Gemini API and to Vertex AI (API key): the method,
path, key header and body, request for request (`tests/fixtures/vs_pi/record_pi.py` records
pi's)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from google_vs_pi import CASES, SCRIPTS, run

from pi_core.testing import console_script

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "vs_pi"
SYSTEM = "<system prompt>"
"""The system prompt's text differs by design (another agent's prompt)."""
DESCRIBED = "<description>"
"""Tool and parameter descriptions are our tools' own wording; the schema's shape is compared."""


def normalized(request: dict[str, Any]) -> dict[str, Any]:
    """`request` with only what must differ replaced by placeholders."""
    request = copy.deepcopy(request)
    body = request["body"]
    for part in body.get("systemInstruction", {}).get("parts", []):
        part["text"] = SYSTEM
    for tool in body.get("tools", []):
        for declaration in tool.get("functionDeclarations", []):
            declaration["description"] = DESCRIBED
            for spec in declaration["parametersJsonSchema"].get("properties", {}).values():
                if "description" in spec:
                    spec["description"] = DESCRIBED
    return request


@pytest.mark.parametrize(("case", "script"), [(c, s) for c in CASES for s in SCRIPTS])
def test_requests_match_pi(case: str, script: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    recorded = json.loads((FIXTURES / f"{case}.{script}.json").read_text())
    ours = run([pi], CASES[case], script, tmp_path)
    assert [normalized(r) for r in ours] == [normalized(r) for r in recorded]

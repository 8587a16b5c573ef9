"""A GitHub Copilot user's requests from our `pi` are pi 0.73.1's: the URL the Copilot token
names, the headers Copilot wants and the body, on each of Copilot's three wire APIs (see
`record_pi.py` for how the fixtures were recorded)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.copilot.scenarios import MODELS, SCRIPTS, run
from tests.requests_vs_pi.test_requests_vs_pi import SYSTEM, normalized

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TRANSPORT = {"accept-encoding", "accept-language", "connection", "content-length", "host",
             "sec-fetch-mode"}  # fmt: skip
"""Headers of the HTTP client, not of the API (Node's fetch adds these; httpx its own)."""
SESSION = {"session_id", "x-client-request-id"}
"""pi sends a session id on the Responses API even with `--no-session`; ours sends none then
(a difference of every `openai-responses` provider, not Copilot's): left out of both."""


def headers(request: dict[str, Any]) -> dict[str, str]:
    """The request's API headers: the transport's, the `openai`/`anthropic` SDKs' own
    (`x-stainless-*`) and the session's left out."""
    return {
        name: value
        for name, value in request["headers"].items()
        if name not in TRANSPORT | SESSION and not name.startswith("x-stainless-")
    }


def body(payload: dict[str, Any]) -> dict[str, Any]:
    """The body as `requests_vs_pi` normalises it, and the Responses API's instructions (its
    first input item) and session-derived cache key left out likewise."""
    payload = normalized(payload)
    payload.pop("prompt_cache_key", None)
    for item in payload.get("input", []):
        if item.get("role") in ("system", "developer"):
            item["content"] = SYSTEM
    return payload


def comparable(request: dict[str, Any]) -> dict[str, Any]:
    """What must be equal: method, path (so the base URL), API headers and normalised body."""
    return {
        "method": request["method"],
        "path": request["path"],
        "headers": headers(request),
        "body": body(request["body"]),
    }


CASES = [(api, script) for api in MODELS for script in SCRIPTS]


@pytest.mark.parametrize(("api", "script"), CASES)
def test_copilot_requests_match_pi(api: str, script: str, tmp_path: Path) -> None:
    pi = shutil.which("pi")
    assert pi, "the pi command is installed with the project"
    recorded = json.loads((FIXTURES / f"{api}.{script}.json").read_text())
    ours = run([pi], api, script, tmp_path)
    assert [comparable(r) for r in ours] == [comparable(r) for r in recorded]

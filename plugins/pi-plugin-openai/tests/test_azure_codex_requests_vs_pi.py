"""Our `pi` sends Azure OpenAI and the Codex backend what pi 0.73.1 sends: path, headers and body
bytes, request by request (`helpers/record_azure_codex.py` recorded pi's into
`fixtures/pi_requests/`)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pi_runs import HEADERS, PROVIDERS, SCRIPTS, run

from pi_core.testing import console_script

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pi_requests"
_UA = re.compile(r"^pi \((browser|\S+ \S+; \S+)\)$")


def _keys(value: Any) -> Any:
    """The body with only what must differ replaced: the system prompt and tool descriptions
    (another agent's words), the per-run session id; a tool's schema (our tool's own) is
    compared without its key order."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("instructions", "description") or (
                key == "content" and value.get("role") == "developer"
            ):
                item = "<text>"
            elif key == "prompt_cache_key":
                item = "<session>"
            elif key == "parameters":
                item = json.loads(json.dumps(item, sort_keys=True))
            out[key] = _keys(item)
        return out
    if isinstance(value, list):
        return [_keys(item) for item in value]
    return value


def normalized(request: dict[str, Any]) -> dict[str, Any]:
    """A request with the session id and user agent's machine details replaced; the body is
    re-encoded compactly in its own key order, so the order is compared too."""
    body = json.loads(request["body"])
    headers = dict(request["headers"])
    for name in ("session_id", "x-client-request-id"):
        if headers.get(name):
            headers[name] = "<session>" if headers[name] == body["prompt_cache_key"] else "?"
    agent = headers.get("user-agent")
    if agent is not None:
        headers["user-agent"] = "pi (<os>)" if _UA.match(agent) else agent
    text = json.dumps(_keys(body), ensure_ascii=False, separators=(",", ":"))
    return {"path": request["path"], "headers": headers, "body": text}


CASES = [(key, script) for key in sorted(PROVIDERS) for script in SCRIPTS]


@pytest.mark.parametrize(("provider", "script"), CASES)
def test_requests_match_pi(provider: str, script: str, tmp_path: Path) -> None:
    pi = console_script("pi")
    recorded = json.loads((FIXTURES / f"{provider}.{script}.json").read_text())
    ours = run([pi], provider, script, tmp_path)
    assert [normalized(r) for r in ours] == [normalized(r) for r in recorded]
    assert set(recorded[0]["headers"]) == set(HEADERS[provider])

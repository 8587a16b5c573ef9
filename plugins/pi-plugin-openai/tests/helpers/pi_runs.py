"""Run an agent (`pi` here, or pi 0.73.1) in a fresh home against the Responses fake, on Azure
or on the ChatGPT (Codex) backend, and return the requests it sent."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

from responses_fake import responses_stream

from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest

ACCOUNT_ID = "acct-test-1234"
"""The ChatGPT account id the fake access token carries."""

PROVIDERS = {
    "azure": ("azure-openai-responses", "gpt-5.4"),
    "codex": ("openai-codex", "gpt-5.5"),
}
SCRIPTS = ("plain", "tool")
HEADERS = {
    "azure": ("accept", "api-key", "authorization", "content-type", "session_id",
              "x-client-request-id"),
    "codex": ("accept", "authorization", "chatgpt-account-id", "content-type", "openai-beta",
              "originator", "session_id", "user-agent", "x-client-request-id"),
}  # fmt: skip
"""The headers compared with pi's (the SDK's own `x-stainless-*` ones are not sent here)."""

_ENV_OUT = ("OPENAI_API_KEY", "PI_CACHE_RETENTION", "AZURE_OPENAI_API_KEY",
            "AZURE_OPENAI_BASE_URL", "AZURE_OPENAI_RESOURCE_NAME", "AZURE_OPENAI_API_VERSION",
            "AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID")  # fmt: skip


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def fake_jwt(account_id: str = ACCOUNT_ID) -> str:
    """An unsigned JWT whose claims carry a ChatGPT account id, as the Codex login's token does."""
    claims = {"https://api.openai.com/auth": {"chatgpt_account_id": account_id}, "exp": 4e9}
    return f"{_b64({'alg': 'none', 'typ': 'JWT'})}.{_b64(claims)}.c2lnbmF0dXJl"


def write_home(key: str, root: Path, base_url: str) -> tuple[Path, dict[str, str]]:
    """Make the agent dir and project for `key`; return the project and the environment."""
    provider, model = PROVIDERS[key]
    home, cwd = root / "home", root / "project"
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True)
    cwd.mkdir()
    (cwd / "note.txt").write_text("hello\n")
    url = f"{base_url}/openai/v1" if key == "azure" else base_url
    models = {"providers": {provider: {"baseUrl": url}}}
    (agent / "models.json").write_text(json.dumps(models))
    settings = {"defaultProvider": provider, "defaultModel": model}
    (agent / "settings.json").write_text(json.dumps(settings))
    env = {**os.environ, "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent),
           "PI_OFFLINE": "1", "NO_COLOR": "1"}  # fmt: skip
    for name in _ENV_OUT:
        env.pop(name, None)
    if key == "azure":
        env["AZURE_OPENAI_API_KEY"] = "test-key"
    else:
        expires = int(time.time() * 1000) + 10 * 24 * 3600 * 1000
        record = {"type": "oauth", "access": fake_jwt(), "refresh": "refresh-token",
                  "expires": expires, "accountId": ACCOUNT_ID}  # fmt: skip
        (agent / "auth.json").write_text(json.dumps({"openai-codex": record}))
    return cwd, env


def answers(script: str) -> list[FakeResponse]:
    """What the fake answers, request by request."""
    if script == "tool":
        call = ("read", {"path": "note.txt"})
        first = responses_stream(reasoning="Let me read it.", calls=[call])
        return [first, responses_stream("It says hello.")]
    return [responses_stream("Hi.")]


def arguments(script: str) -> list[str]:
    """The command-line arguments after the program, the same for both agents."""
    common = ["-p", "--no-session", "--tools", "read"]
    if script == "plain":
        return [*common, "--thinking", "off", "Say hi."]
    return [*common, "--thinking", "high", "Read note.txt."]


def _no_websocket(request: RecordedRequest) -> FakeResponse | None:
    """pi may try a WebSocket first (a GET upgrade): refuse it, so that it falls back to SSE."""
    if request.method == "GET":
        return FakeResponse.json_body({"error": {"message": "no websockets here"}}, status=404)
    return None


def run(command: list[str], key: str, script: str, root: Path) -> list[dict[str, Any]]:
    """Run `command` + the script's arguments against the fake; return its POSTs (path, the
    compared headers, body text), after checking that it printed the final answer."""
    with FakeLLMServer() as server:
        server.route(_no_websocket)
        cwd, env = write_home(key, root, server.base_url)
        server.queue(*answers(script))
        done = subprocess.run(
            [*command, *arguments(script)], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        final = "It says hello." if script == "tool" else "Hi."
        assert final in done.stdout, done.stderr + done.stdout
        posts = [r for r in server.requests if r.method == "POST"]
    names = HEADERS[key]
    return [
        {"path": r.path, "headers": {n: r.headers.get(n) for n in names}, "body": r.body.decode()}
        for r in posts
    ]

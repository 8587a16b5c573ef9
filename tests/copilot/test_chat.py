"""A GitHub Copilot user chats with our `pi -p`, end to end: a tool call on each of Copilot's wire
APIs, with the Copilot token refreshed first when it has expired, and the API's URL taken from
the token (over a models.json URL, as pi does) — against the loopback fakes of
`pi_core.testing` (Copilot's API over TLS, GitHub's token endpoint)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from pi_core.testing import FakeAuthServer, FakeLLMServer
from tests.copilot.scenarios import (
    GITHUB_TOKEN,
    MODELS,
    answers,
    arguments,
    auth_record,
    copilot_token,
    environment,
    prepare,
    server_tls,
)

CLOSED = "127.0.0.1:9"
"""A `proxy-ep` where nothing listens: a request sent there fails."""


def pi() -> str:
    found = shutil.which("pi")
    assert found, "the pi command is installed with the project"
    return found


@pytest.mark.parametrize("api", list(MODELS))
def test_an_expired_copilot_token_is_refreshed_and_a_tool_call_runs(
    api: str, tmp_path: Path
) -> None:
    home, agent, cwd = prepare(tmp_path, MODELS[api])
    with FakeLLMServer(tls=server_tls()) as llm:
        proxy = llm.base_url.removeprefix("https://")
        with FakeAuthServer(copilot_proxy=proxy) as github:
            # the stored token has expired, and its proxy-ep points nowhere: only the fresh
            # token's URL reaches the fake
            expired = copilot_token(CLOSED, number=0, expires_at=int(time.time()) - 60)
            stored = auth_record(expired, int(time.time() * 1000) - 60_000)
            (agent / "auth.json").write_text(json.dumps(stored))
            llm.queue(*answers(api, "tool"))
            env = {**environment(home, agent), "PI_TEST_OAUTH_ORIGIN": github.origin}
            done = subprocess.run(
                [pi(), *arguments("tool")], cwd=cwd, env=env, capture_output=True, text=True,
                timeout=120,
            )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    assert "It says hello." in done.stdout
    [refresh] = github.requests
    assert (refresh.method, refresh.path) == ("GET", "/copilot_internal/v2/token")
    assert refresh.headers["authorization"] == f"Bearer {GITHUB_TOKEN}"
    assert refresh.headers["user-agent"] == "GitHubCopilotChat/0.35.0"
    entry = json.loads((agent / "auth.json").read_text())["github-copilot"]
    fresh = entry["access"]
    assert fresh.startswith("tid=copilot-1;") and f"proxy-ep={proxy}" in fresh
    assert entry["refresh"] == GITHUB_TOKEN and entry["expires"] > time.time() * 1000
    first, second = llm.requests
    for request in (first, second):
        assert request.headers["authorization"] == f"Bearer {fresh}"
        assert request.headers["openai-intent"] == "conversation-edits"
        assert "x-api-key" not in request.headers
    assert (first.headers["x-initiator"], second.headers["x-initiator"]) == ("user", "agent")
    assert "hello" in second.body.decode()  # the tool's result went back


def test_the_token_url_wins_over_models_json_and_an_env_key_uses_models_json(
    tmp_path: Path,
) -> None:
    api = "openai-completions"
    with FakeLLMServer(tls=server_tls()) as llm:
        proxy = llm.base_url.removeprefix("https://")
        # logged in: the token's URL, whatever models.json says (pi's modifyModels comes last)
        home, agent, cwd = prepare(tmp_path / "login", MODELS[api])
        elsewhere = {"providers": {"github-copilot": {"baseUrl": f"https://{CLOSED}"}}}
        (agent / "models.json").write_text(json.dumps(elsewhere))
        expires = int(time.time() * 1000) + 3_600_000
        (agent / "auth.json").write_text(json.dumps(auth_record(copilot_token(proxy), expires)))
        llm.queue(*answers(api, "plain"))
        done = subprocess.run(
            [pi(), *arguments("plain")], cwd=cwd, env=environment(home, agent),
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
        # a key from the environment: no login, so models.json's URL (here, the fake)
        home, agent, cwd = prepare(tmp_path / "env", MODELS[api])
        here = {"providers": {"github-copilot": {"baseUrl": llm.base_url}}}
        (agent / "models.json").write_text(json.dumps(here))
        llm.queue(*answers(api, "plain"))
        env = {**environment(home, agent), "COPILOT_GITHUB_TOKEN": "gho_from_env"}
        done = subprocess.run(
            [pi(), *arguments("plain")], cwd=cwd, env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr + done.stdout
    login, from_env = llm.requests
    assert login.headers["authorization"] == f"Bearer {copilot_token(proxy)}"
    assert from_env.headers["authorization"] == "Bearer gho_from_env"
    assert from_env.headers["x-initiator"] == "user"  # Copilot's headers whatever the key

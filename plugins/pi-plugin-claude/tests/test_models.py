"""Any model: Claude over ANTHROPIC_*, a `provider/id`, a models.json model, Claude's aliases."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream


def ask(pi_claude: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [pi_claude, "-p", "hello", "--output-format", "json", *args],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )


def without_anthropic(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"):
        monkeypatch.delenv(name, raising=False)


def test_anthropic_env_means_claude_at_that_url(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    server.queue(script.reply("from claude"))
    done = ask(pi_claude)
    assert json.loads(done.stdout)["result"] == "from claude"
    request = server.requests[0]
    assert request.path.startswith("/v1/messages")
    assert request.json()["model"] == "claude-sonnet-4-5"
    assert request.headers["x-api-key"] == "fake"


def test_claude_aliases_and_auth_token(
    pi_claude: str,
    project: Path,
    server: FakeLLMServer,
    script: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    monkeypatch.setenv("ANTHROPIC_AUTH_TOKEN", "token-123")
    server.queue(script.reply("haiku here"))
    done = ask(pi_claude, "--model", "haiku")
    assert json.loads(done.stdout)["result"] == "haiku here", done.stderr
    assert server.requests[0].json()["model"] == "claude-haiku-4-5"
    assert "token-123" in json.dumps(server.requests[0].headers)


def test_a_models_json_model_by_provider_and_id(
    pi_claude: str, project: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_anthropic(monkeypatch)
    agent = Path.home() / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "models.json").write_text(json.dumps(chat_models_json(server.base_url, "local-coder")))
    server.queue(chat_stream("a local answer"))
    done = ask(pi_claude, "--model", "fake/local-coder")
    result = json.loads(done.stdout)
    assert result["result"] == "a local answer", done.stderr
    assert server.requests[0].path.endswith("/chat/completions")
    assert server.requests[0].json()["model"] == "local-coder"


def test_no_model_at_all_is_one_clear_line(
    pi_claude: str, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_anthropic(monkeypatch)
    for name in ("OPENAI_API_KEY", "GEMINI_API_KEY", "GROQ_API_KEY", "OPENROUTER_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    done = ask(pi_claude)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: ") and len(done.stderr.strip().splitlines()) == 1

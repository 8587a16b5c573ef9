"""Any model: Claude over ANTHROPIC_*, a `provider/id`, a models.json model, Claude's aliases."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cc_recording import claude_code

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


def no_pi_retries() -> None:
    """Let the first failure stand: pi's own retries (with their backoff) are off."""
    agent = Path.home() / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    retries_off = {"retry": {"enabled": False, "provider": {"maxRetries": 0}}}
    (agent / "settings.json").write_text(json.dumps(retries_off))


def overloaded() -> Any:
    from pi_core.testing import FakeResponse

    body = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    return FakeResponse.json_body(body, status=529)


def test_an_overloaded_model_falls_back_and_says_so(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    no_pi_retries()
    server.queue(overloaded(), script.reply("haiku answers"))
    fallback = ["--model", "sonnet", "--fallback-model", "haiku"]
    done = subprocess.run(
        [pi_claude, "-p", "hello", "--output-format", "stream-json", "--verbose", *fallback],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    switch = [m for m in lines if m.get("subtype") == "model_fallback"]
    assert len(switch) == 1 and switch[0]["type"] == "system"
    assert switch[0]["trigger"] == "overloaded"
    assert switch[0]["original_model"] == "anthropic/claude-sonnet-4-5"
    assert switch[0]["fallback_model"] == "anthropic/claude-haiku-4-5"
    assert switch[0]["content"] == (
        "Switched to anthropic/claude-haiku-4-5 due to high demand for anthropic/claude-sonnet-4-5"
    )
    result = lines[-1]
    assert result["type"] == "result" and result["is_error"] is False
    assert result["result"] == "haiku answers"
    assert [r.json()["model"] for r in server.requests] == ["claude-sonnet-4-5", "claude-haiku-4-5"]
    retried = server.requests[1].json()["messages"]
    assert [m["role"] for m in retried] == ["user"]  # the failed answer is not sent again


def test_fallback_in_text_mode_goes_to_stderr(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    no_pi_retries()
    server.queue(script.error(503, "Service Unavailable"), script.reply("second model"))
    done = subprocess.run(
        [pi_claude, "-p", "hello", "--model", "opus", "--fallback-model", "sonnet"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "second model"
    assert "Switched to anthropic/claude-sonnet-4-5 due to high demand for" in done.stderr


def test_a_request_error_does_not_fall_back(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    no_pi_retries()
    server.queue(script.error(400, "bad request"), script.reply("never sent"))
    done = ask(pi_claude, "--model", "sonnet", "--fallback-model", "haiku")
    assert done.returncode == 1
    assert json.loads(done.stdout)["result"].startswith("API Error: 400")
    assert len(server.requests) == 1


def test_a_failing_fallback_ends_the_turn_with_its_error(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    no_pi_retries()
    server.queue(overloaded(), overloaded(), script.reply("never sent"))
    done = ask(pi_claude, "--model", "sonnet", "--fallback-model", "haiku")
    assert done.returncode == 1
    assert json.loads(done.stdout)["result"].startswith("API Error: 529")
    assert len(server.requests) == 2


@pytest.mark.parametrize(
    ("model", "fallback"),
    [("sonnet", "sonnet"), ("sonnet", "claude-sonnet-4-5"), ("anthropic/claude-x", "claude-x")],
)
def test_a_fallback_equal_to_the_model_is_an_error(
    pi_claude: str, project: Path, server: FakeLLMServer, model: str, fallback: str
) -> None:
    done = ask(pi_claude, "--model", model, "--fallback-model", fallback)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == (
        "Error: Fallback model cannot be the same as the main model. "
        "Please specify a different model for --fallback-model."
    )
    assert server.requests == []


def test_an_unknown_fallback_model_keeps_the_original_error(
    pi_claude: str, project: Path, server: FakeLLMServer
) -> None:
    no_pi_retries()
    server.queue(overloaded())
    done = ask(pi_claude, "--model", "sonnet", "--fallback-model", "nowhere/no-such-model")
    assert done.returncode == 1
    assert json.loads(done.stdout)["result"].startswith("API Error: 529")
    assert "cannot switch to --fallback-model nowhere/no-such-model" in done.stderr
    assert len(server.requests) == 1


@pytest.mark.parametrize("name", ["my-proxy-model", "claude-house-7", "anthropic/house-model"])
def test_a_model_pi_does_not_know_goes_to_the_server_as_given(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any, name: str
) -> None:
    server.queue(script.reply("from the proxy"))
    done = ask(pi_claude, "--model", name)
    assert json.loads(done.stdout)["result"] == "from the proxy", done.stderr
    request = server.requests[0]
    assert request.path.startswith("/v1/messages")
    assert request.json()["model"] == name.removeprefix("anthropic/")


def test_a_proxy_model_name_is_sent_as_claude_code_sends_it(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    recorded = claude_code("proxy_model")
    server.queue(script.reply("ok"))
    done = ask(pi_claude, *recorded["argv"])
    assert done.returncode == 0, done.stderr
    assert server.requests[0].json()["model"] == recorded["model"] == "my-proxy-model"


def test_an_unknown_model_without_anthropic_env_is_still_an_error(
    pi_claude: str, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    without_anthropic(monkeypatch)
    done = ask(pi_claude, "--model", "my-proxy-model")
    assert done.returncode == 1 and "Unknown model" in done.stderr

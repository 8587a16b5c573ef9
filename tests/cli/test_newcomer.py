"""A new user with no key: `pi -p`, `--mode json` and `--mode rpc` say what to do; a local
OpenAI-compatible server (a fake on a port the test chooses) is found and used."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_core.testing import (
    FakeLLMServer,
    FakeResponse,
    RecordedRequest,
    chat_stream,
    console_script,
)
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

KEY_VARIABLES = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN")


@pytest.fixture
def newcomer(cli: Cli) -> Cli:
    """An agent folder with nothing in it, no key in the environment, no local server."""
    for name in ("models.json", "settings.json"):
        (cli.agent_dir / name).unlink()
    for name in KEY_VARIABLES:
        cli.env.pop(name, None)
    cli.env["PI_LOCAL_SERVERS"] = "off"
    return cli


@pytest.fixture
def local_server() -> Iterator[FakeLLMServer]:
    """A fake OpenAI-compatible server that lists two models at GET /v1/models."""
    listing = {"object": "list", "data": [{"id": "tiny-coder"}, {"id": "tiny-chat"}]}

    def models(request: RecordedRequest) -> FakeResponse | None:
        return FakeResponse.json_body(listing) if request.method == "GET" else None

    with FakeLLMServer() as server:
        server.route(models)
        yield server


def test_print_mode_without_a_key_says_what_to_do(newcomer: Cli) -> None:
    result = newcomer.run("-p", "hi")
    assert result.returncode == 1
    assert result.stdout == ""
    err = result.stderr
    assert err.startswith("Error: no model available")
    assert "OPENAI_API_KEY" in err and "ANTHROPIC_API_KEY" in err
    assert "/login" in err and str(newcomer.agent_dir / "auth.json") in err
    assert str(newcomer.agent_dir / "models.json") in err
    assert "--model provider/id" in err
    assert str(Path(__file__).parents[2] / "docs" / "providers.md") in err
    assert "search is turned off" in err  # PI_LOCAL_SERVERS=off


def test_json_mode_keeps_stdout_machine_shaped_and_explains_on_stderr(newcomer: Cli) -> None:
    result = newcomer.run("--mode", "json", "hi")
    assert result.returncode == 1
    for line in result.stdout.splitlines():
        json.loads(line)
    assert "/login" in result.stderr and "providers.md" in result.stderr


def test_rpc_prompt_without_a_model_gets_an_error_naming_login_and_model(newcomer: Cli) -> None:
    pi = console_script("pi")
    process = RpcProcess([pi, "--mode", "rpc", "--no-session"], newcomer.cwd, newcomer.env)
    process.send({"id": "p", "type": "prompt", "message": "hi"})
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == "p")
    response = process.records[-1]
    assert response["success"] is False
    assert "No model selected" in response["error"]
    assert "/login" in response["error"] and "/model" in response["error"]
    assert str(newcomer.agent_dir / "models.json") in response["error"]
    process.close()


def test_print_mode_uses_a_local_server_only_when_no_model_is_configured(
    cli: Cli, local_server: FakeLLMServer
) -> None:
    for name in KEY_VARIABLES:
        cli.env.pop(name, None)
    cli.env["PI_LOCAL_SERVERS"] = f"ollama={local_server.base_url}/v1"
    cli.server.queue(chat_stream("from the configured model"))
    configured = cli.run("-p", "hi")
    assert configured.returncode == 0, configured.stderr
    assert local_server.requests == []  # a model is configured: nothing is probed

    for name in ("models.json", "settings.json"):
        (cli.agent_dir / name).unlink()
    local_server.queue(chat_stream("hello from the local model"))
    result = cli.run("-p", "hi")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "hello from the local model\n"
    assert f"ollama at {local_server.base_url}/v1 (2 models)" in result.stderr
    assert "Using ollama/tiny-coder" in result.stderr
    probe, chat = local_server.requests
    assert (probe.method, probe.path) == ("GET", "/v1/models")
    assert chat.path == "/v1/chat/completions" and chat.json()["model"] == "tiny-coder"
    assert not (cli.agent_dir / "settings.json").exists()  # the local model is not made default


def test_the_setting_turns_the_search_off(cli: Cli, local_server: FakeLLMServer) -> None:
    (cli.agent_dir / "models.json").unlink()
    cli.settings(discoverLocalServers=False)
    for name in KEY_VARIABLES:
        cli.env.pop(name, None)
    cli.env["PI_LOCAL_SERVERS"] = f"{local_server.base_url}/v1"
    result = cli.run("-p", "hi")
    assert result.returncode == 1
    assert local_server.requests == []
    assert "discoverLocalServers" in result.stderr

"""Keys and provider headers: resolved like pi's, never echoed, and clear when they are wrong."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pi_core.testing import chat_models_json, chat_stream
from tests.cli.conftest import Cli
from tests.cli.rpc_script import RpcProcess

Start = Callable[..., RpcProcess]


def use_models(cli: Cli, **provider: Any) -> None:
    """Rewrite models.json with extra fields for the fake provider."""
    models = chat_models_json(cli.server.base_url)
    models["providers"]["fake"].update(provider)
    (cli.agent_dir / "models.json").write_text(json.dumps(models))


def response_for(process: RpcProcess, request_id: str) -> dict[str, Any]:
    process.read_until(lambda r: r.get("type") == "response" and r.get("id") == request_id)
    return process.records[-1]


def test_rpc_never_returns_header_values(cli: Cli, rpc: Start) -> None:
    use_models(cli, headers={"X-Secret": "sk-top-secret-header"})
    process = rpc("--no-session")
    for request_id, kind in [("s", "get_state"), ("m", "get_available_models")]:
        process.send({"id": request_id, "type": kind})
        assert response_for(process, request_id)["success"]
    process.send({"id": "set", "type": "set_model", "provider": "fake", "modelId": "fake-model"})
    assert response_for(process, "set")["success"]
    process.close()
    printed = json.dumps(process.records)
    assert "sk-top-secret-header" not in printed
    assert "X-Secret" not in printed


def test_header_values_resolve_like_api_keys(cli: Cli) -> None:
    use_models(
        cli,
        headers={
            "X-From-Command": "!echo from-command",
            "X-From-Env": "PI_TEST_HEADER_VALUE",
            "X-Literal": "plain",
        },
    )
    cli.server.queue(chat_stream("ok"))
    cli.env["PI_TEST_HEADER_VALUE"] = "from-environment"
    done = cli.run("-p", "hi")
    assert done.returncode == 0, done.stderr
    sent = cli.server.requests[0].headers
    assert sent["x-from-command"] == "from-command"
    assert sent["x-from-env"] == "from-environment"
    assert sent["x-literal"] == "plain"


def test_a_failing_key_command_says_which_command_and_its_exit_code(cli: Cli) -> None:
    use_models(cli, apiKey="!echo leaked-secret-output; exit 4")
    done = cli.run("-p", "hi")
    assert done.returncode == 1
    assert "the command `echo leaked-secret-output; exit 4` failed with exit code 4" in done.stderr
    assert "leaked-secret-output\n" not in done.stderr
    assert done.stderr.count("leaked-secret-output") == 1  # only inside the command's own text
    assert not cli.server.requests


def test_a_key_with_a_line_break_is_refused_clearly(cli: Cli) -> None:
    use_models(cli, apiKey="sk-first-line\nsecond-line")
    done = cli.run("-p", "hi")
    assert done.returncode == 1
    assert "API key for provider 'fake' contains a line break" in done.stderr
    assert "sk-first-line" not in done.stderr
    assert not cli.server.requests


def test_a_header_with_a_line_break_is_refused_clearly(cli: Cli) -> None:
    use_models(cli, headers={"X-Broken": "!printf 'a\\nb'"})
    done = cli.run("-p", "hi")
    assert done.returncode == 1
    assert "Header 'X-Broken' of model fake/fake-model contains a line break" in done.stderr
    assert not cli.server.requests

"""A malformed settings.json (global or project), models.json or auth.json: one warning on stderr
naming the file, line and column, in every mode; the run goes on; the file is left byte for byte
as it was, even when the session changes a setting. `pi plugins` and `pi --list-models` show it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

BROKEN_SETTINGS = '{\n  "theme": "dark",\n  oops\n}\n'  # line 3, column 3
SETTINGS_PROBLEM = (
    "3:3: invalid JSON in settings: Expecting property name enclosed in double quotes"
)
MODES = ("print", "json", "rpc")

# Registers the fake server as a provider, so a session has a model without models.json.
FAKE_PROVIDER_PLUGIN = """\
from pi_core import ProviderConfig, hookimpl
from pi_core.providers import ProviderModelConfig


@hookimpl
def register_providers(register):
    register("fake", ProviderConfig(base_url={url!r}, api="openai-completions",
                                    api_key="test-key",
                                    models=[ProviderModelConfig(id="fake-model")]))
"""


def run_mode(cli: Cli, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run one prompt in `mode` and check that it went through."""
    cli.server.queue(chat_stream("answer"))
    base = ("--model", "fake/fake-model", *args)
    if mode == "rpc":
        prompt = json.dumps({"id": "1", "type": "prompt", "message": "hi"})
        state = json.dumps({"id": "2", "type": "get_state"})
        result = cli.run(*base, "--mode", "rpc", stdin=f"{prompt}\n{state}\n")
    elif mode == "json":
        result = cli.run(*base, "--mode", "json", "-p", "hi")
    else:
        result = cli.run(*base, "-p", "hi")
    assert result.returncode == 0, result.stderr
    assert len(cli.server.requests) == 1  # the prompt reached the model
    if mode == "print":
        assert result.stdout == "answer\n"
    else:
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert any(r.get("type") == "agent_end" for r in records)
    return result


def warnings(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The warning lines on stderr."""
    return [line for line in result.stderr.splitlines() if line.startswith("Warning: ")]


@pytest.mark.parametrize("mode", MODES)
def test_malformed_global_settings_warn_once_and_stay_untouched(cli: Cli, mode: str) -> None:
    settings = cli.agent_dir / "settings.json"
    settings.write_text(BROKEN_SETTINGS)
    result = run_mode(cli, mode)
    assert warnings(result) == [f"Warning: {settings}:{SETTINGS_PROBLEM}"]
    assert settings.read_text() == BROKEN_SETTINGS


@pytest.mark.parametrize("mode", MODES)
def test_malformed_project_settings_warn_once_and_stay_untouched(cli: Cli, mode: str) -> None:
    settings = cli.cwd / ".pi" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"a": 1,,}')
    result = run_mode(cli, mode)
    assert warnings(result) == [
        f"Warning: {settings}:1:9: invalid JSON in settings: "
        "Expecting property name enclosed in double quotes"
    ]
    assert settings.read_text() == '{"a": 1,,}'


@pytest.mark.parametrize("mode", MODES)
def test_malformed_models_json_warns_once_and_stays_untouched(cli: Cli, mode: str) -> None:
    models = cli.agent_dir / "models.json"
    broken = '{"providers": {\n  "fake": {"baseUrl": "http://x"\n}'
    models.write_text(broken)
    plugin = cli.cwd / "fake_provider.py"
    plugin.write_text(FAKE_PROVIDER_PLUGIN.format(url=cli.server.base_url))
    result = run_mode(cli, mode, "-e", str(plugin))
    assert warnings(result) == [
        f"Warning: {models}:3:2: invalid JSON in models.json: Expecting ',' delimiter"
    ]
    assert models.read_text() == broken


@pytest.mark.parametrize("mode", MODES)
def test_malformed_auth_json_warns_once_and_stays_untouched(cli: Cli, mode: str) -> None:
    auth = cli.agent_dir / "auth.json"
    broken = '{"anthropic": {"type": "api_key", "key": "sk-keep-me"}\n'
    auth.write_text(broken)
    result = run_mode(cli, mode)
    assert warnings(result) == [
        f"Warning: {auth}:2:1: invalid JSON in auth.json: Expecting ',' delimiter"
    ]
    assert auth.read_text() == broken


def test_settings_changed_in_a_session_never_overwrite_a_malformed_file(cli: Cli) -> None:
    settings = cli.agent_dir / "settings.json"
    settings.write_text(BROKEN_SETTINGS)
    commands = [
        {"id": "1", "type": "set_model", "provider": "fake", "modelId": "fake-model"},
        {"id": "2", "type": "set_steering_mode", "mode": "all"},
        {"id": "3", "type": "set_auto_compaction", "enabled": False},
        {"id": "4", "type": "get_state"},
    ]
    stdin = "".join(json.dumps(command) + "\n" for command in commands)
    result = cli.run("--mode", "rpc", stdin=stdin)
    assert result.returncode == 0, result.stderr
    responses = {r["id"]: r for r in map(json.loads, result.stdout.splitlines()) if "id" in r}
    assert all(responses[str(n)]["success"] for n in range(1, 5)), responses
    assert responses["4"]["data"]["steeringMode"] == "all"  # held for this run
    assert settings.read_text() == BROKEN_SETTINGS
    assert warnings(result) == [f"Warning: {settings}:{SETTINGS_PROBLEM}"]


def test_pi_plugins_and_list_models_show_the_problems(cli: Cli) -> None:
    settings = cli.agent_dir / "settings.json"
    settings.write_text(BROKEN_SETTINGS)
    auth = cli.agent_dir / "auth.json"
    auth.write_text("[1, 2")

    plugins = cli.run("plugins")
    assert plugins.returncode == 0, plugins.stderr
    assert f"  {settings}:{SETTINGS_PROBLEM}" in plugins.stdout.splitlines()
    assert any(
        line.startswith(f"  {auth}:1:6: invalid JSON") for line in plugins.stdout.splitlines()
    )
    report = json.loads(cli.run("plugins", "--json").stdout)
    assert report["config"][0] == f"{settings}:{SETTINGS_PROBLEM}"

    listed = cli.run("--list-models")
    assert listed.returncode == 0, listed.stderr
    assert "fake-model" in listed.stdout
    assert warnings(listed)[0] == f"Warning: {settings}:{SETTINGS_PROBLEM}"
    assert len(warnings(listed)) == 2
    assert settings.read_text() == BROKEN_SETTINGS and auth.read_text() == "[1, 2"


def test_an_auth_json_that_cannot_be_read_is_never_written_over(tmp_path: Path) -> None:
    from pi_core.ai.auth import AuthStorage

    path = tmp_path / "auth.json"
    path.write_text('{"openai": {"type": "api_key", "key": "sk-old"},}')
    auth = AuthStorage(path)
    with pytest.raises(ValueError, match=r"refusing to write auth\.json"):
        auth.set_api_key("anthropic", "sk-new")
    assert path.read_text() == '{"openai": {"type": "api_key", "key": "sk-old"},}'

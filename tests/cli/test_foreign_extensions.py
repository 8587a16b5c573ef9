"""A pi (TypeScript/JavaScript) extension found where pi would load one stops `pi` in every
mode, naming the file and the ways out; blocking it or `--no-extensions` lets pi start."""

from __future__ import annotations

import json
import subprocess

import pytest

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli

MODES = {
    "print": ("-p", "hi"),
    "json": ("--mode", "json", "-p", "hi"),
    "rpc": ("--mode", "rpc"),
}
GATE = "export default function (pi) { pi.on('tool_call', () => ({ block: true })); }\n"


def run_mode(cli: Cli, mode: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `pi ARGS… <mode>`, with a get_state command on stdin in rpc mode."""
    stdin = json.dumps({"type": "get_state"}) + "\n" if mode == "rpc" else ""
    return cli.run(*args, *MODES[mode], stdin=stdin)


def assert_gate_stops(result: subprocess.CompletedProcess[str], path: str, name: str) -> None:
    """Exit 1, the file named with the three ways to proceed, nothing on stdout."""
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    assert f'Error: Failed to load extension "{path}": TypeScript/JavaScript' in result.stderr
    assert f"pi --block-plugin {name}" in result.stderr
    assert f'add "{name}" to "blockedPlugins"' in result.stderr


@pytest.mark.parametrize("mode", MODES)
def test_a_project_typescript_gate_stops_every_mode(cli: Cli, mode: str) -> None:
    gate = cli.cwd / ".pi" / "extensions" / "gate.ts"
    gate.parent.mkdir(parents=True)
    gate.write_text(GATE)
    result = run_mode(cli, mode)
    assert_gate_stops(result, str(gate), "gate")
    assert "pi --no-extensions" in result.stderr
    assert cli.server.requests == []


def test_a_global_javascript_folder_extension_stops_start_up(cli: Cli) -> None:
    folder = cli.agent_dir / "extensions" / "guard"
    folder.mkdir(parents=True)
    (folder / "index.js").write_text(GATE)
    assert_gate_stops(run_mode(cli, "print"), str(folder), "guard")
    assert cli.server.requests == []


def test_a_typescript_path_in_the_extensions_setting_stops_start_up(cli: Cli) -> None:
    gate = cli.cwd / "gates" / "policy.mjs"
    gate.parent.mkdir()
    gate.write_text(GATE)
    cli.settings(defaultProvider="fake", defaultModel="fake-model", extensions=[str(gate)])
    assert_gate_stops(run_mode(cli, "json"), str(gate), "policy")


@pytest.mark.parametrize("way_out", ["--no-extensions", "--block-plugin gate", "blockedPlugins"])
def test_each_way_out_named_in_the_message_lets_pi_start(cli: Cli, way_out: str) -> None:
    gate = cli.cwd / ".pi" / "extensions" / "gate.ts"
    gate.parent.mkdir(parents=True)
    gate.write_text(GATE)
    args: list[str] = []
    if way_out == "blockedPlugins":
        cli.settings(defaultProvider="fake", defaultModel="fake-model", blockedPlugins=["gate"])
    else:
        args = way_out.split()
    cli.server.queue(chat_stream("answered"))
    result = run_mode(cli, "print", *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "answered"
    assert len(cli.server.requests) == 1

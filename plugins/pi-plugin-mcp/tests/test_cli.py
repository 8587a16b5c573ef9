"""`pi mcp list | add | remove` run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pi_core.testing import console_script

pytestmark = pytest.mark.slow

DEMO = Path(__file__).parent / "servers" / "demo_server.py"


class Shell:
    def __init__(self, root: Path) -> None:
        self.cwd = root / "project"
        self.agent_dir = root / "agent"
        self.cwd.mkdir()
        self.agent_dir.mkdir()
        self.env = {**os.environ, "HOME": str(root), "PI_CODING_AGENT_DIR": str(self.agent_dir)}

    def pi(self, *args: str) -> subprocess.CompletedProcess[str]:
        pi = console_script("pi")
        return subprocess.run(
            [pi, *args], cwd=self.cwd, env=self.env, capture_output=True, text=True, timeout=120
        )

    def settings(self, local: bool = False) -> dict[str, object]:
        path = self.cwd / ".pi" / "settings.json" if local else self.agent_dir / "settings.json"
        loaded: dict[str, object] = json.loads(path.read_text())
        return loaded


@pytest.fixture
def shell(tmp_path: Path) -> Shell:
    return Shell(tmp_path)


def test_add_list_and_remove_a_stdio_server(shell: Shell) -> None:
    added = shell.pi("mcp", "add", "demo", "-e", "A=1", "--", sys.executable, str(DEMO), "stdio")
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip() == (
        f"Added MCP server 'demo' to {shell.agent_dir / 'settings.json'}"
    )
    assert shell.settings()["mcpServers"] == {
        "demo": {"command": sys.executable, "args": [str(DEMO), "stdio"], "env": {"A": "1"}}
    }

    listed = shell.pi("mcp", "list")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith("demo  [connected]")
    assert "tools: mcp__demo__add, mcp__demo__crash, mcp__demo__echo" in listed.stdout

    as_json = json.loads(shell.pi("mcp", "list", "--json").stdout)
    assert [s["state"] for s in as_json["servers"]] == ["connected"]

    removed = shell.pi("mcp", "remove", "demo")
    assert removed.returncode == 0, removed.stderr
    assert shell.settings()["mcpServers"] == {}
    again = shell.pi("mcp", "remove", "demo")
    assert again.returncode == 1
    assert "No MCP server named 'demo' in the settings" in again.stderr


def test_add_an_http_server_to_the_project(shell: Shell) -> None:
    added = shell.pi(
        "mcp", "add", "-l", "-H", "Authorization: Bearer ${TOKEN}", "remote",
        "https://mcp.example/mcp",
    )  # fmt: skip
    assert added.returncode == 0, added.stderr
    assert shell.settings(local=True)["mcpServers"] == {
        "remote": {
            "type": "http",
            "url": "https://mcp.example/mcp",
            "headers": {"Authorization": "Bearer ${TOKEN}"},
        }
    }


def test_list_reports_a_server_that_fails(shell: Shell) -> None:
    (shell.cwd / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"ghost": {"command": "no-such-mcp-server-command"}}})
    )
    listed = shell.pi("mcp", "list")
    assert listed.returncode == 0
    assert listed.stdout.splitlines() == [
        "ghost  [failed]  no-such-mcp-server-command",
        "    command not found: no-such-mcp-server-command",
    ]


def test_bad_arguments_are_usage_errors(shell: Shell) -> None:
    bad_env = shell.pi("mcp", "add", "demo", "-e", "NOEQUALS", "--", "cmd")
    assert bad_env.returncode == 2
    assert "-e 'NOEQUALS': expected KEY=VALUE" in bad_env.stderr
    extra = shell.pi("mcp", "add", "-t", "http", "remote", "http://h/mcp", "more")
    assert extra.returncode == 2
    assert "takes a URL and no further arguments" in extra.stderr
    assert not (shell.agent_dir / "settings.json").exists()


def test_no_servers(shell: Shell) -> None:
    listed = shell.pi("mcp", "list")
    assert listed.stdout.strip() == (
        "No MCP servers configured (mcpServers in .mcp.json or settings.json)."
    )

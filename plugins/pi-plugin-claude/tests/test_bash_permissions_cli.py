"""The probe of issue 28, end to end: `pi-claude -p` with a scripted model, the real Bash tool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_core.testing import FakeLLMServer

SETTINGS = {
    "permissions": {
        "allow": ["Bash(git status:*)", "Bash(npm test)"],
        "deny": ["Bash(rm:*)", "Read(./secrets/**)"],
    }
}

ATTACKS = [
    # (mode, command): each would create `pwned` or remove `keep` if it ran
    ("default", "echo hi & touch pwned"),
    ("default", "git status; touch pwned"),
    ("default", "git status > pwned"),
    ("default", "env sh -c 'touch pwned'"),
    ("plan", "find . -name x -fprint pwned"),
    ("plan", "sort -o pwned README.md"),
    ("dontAsk", "git branch pwned && touch pwned"),
    ("bypassPermissions", "FOO=1 rm -f keep"),
    ("bypassPermissions", "command rm -f keep"),
]


def _run(pi_claude: str, mode: str) -> dict[str, Any]:
    done = subprocess.run(
        [pi_claude, "-p", "go", "--output-format", "json", "--permission-mode", mode],
        input="", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    result = json.loads(done.stdout)
    assert isinstance(result, dict), done.stderr
    return result


def _project(project: Path) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(SETTINGS))
    (project / "README.md").write_text("hello readme\n")
    (project / "keep").write_text("keep me\n")
    (project / "secrets").mkdir()
    (project / "secrets" / "key").write_text("TOP-SECRET-KEY\n")
    subprocess.run(["git", "init", "-q", str(project)], check=True)


def _tool_result(server: FakeLLMServer) -> str:
    last = server.requests[-1].json()["messages"][-1]
    blocks = [b for b in last["content"] if isinstance(b, dict) and b["type"] == "tool_result"]
    content = blocks[0]["content"]
    return content if isinstance(content, str) else "".join(p.get("text", "") for p in content)


@pytest.mark.parametrize(("mode", "command"), ATTACKS)
def test_attack_does_not_run(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any, mode: str, command: str
) -> None:
    _project(project)
    server.queue(script.call("toolu_1", "Bash", {"command": command}), script.reply("done"))
    result = _run(pi_claude, mode)
    assert not (project / "pwned").exists(), command
    assert (project / "keep").exists(), command
    assert [d["tool_name"] for d in result["permission_denials"]] == ["Bash"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX shell")
def test_denied_read_never_reaches_the_model(
    pi_claude: str, project: Path, server: FakeLLMServer, script: Any
) -> None:
    _project(project)
    server.queue(
        script.call("toolu_1", "Bash", {"command": "cat secrets/key"}),
        script.reply("done"),
    )
    _run(pi_claude, "default")
    result = _tool_result(server)
    assert "TOP-SECRET-KEY" not in result
    assert "has been denied" in result


def test_safe_twin_runs(pi_claude: str, project: Path, server: FakeLLMServer, script: Any) -> None:
    _project(project)
    server.queue(
        script.call("toolu_1", "Bash", {"command": "cat README.md | grep hello && git status"}),
        script.reply("done"),
    )
    result = _run(pi_claude, "plan")
    assert result["permission_denials"] == []
    assert "hello readme" in _tool_result(server)


def test_the_plugin_loads_the_bash_grammar() -> None:
    probe = "import sys, pi_plugin_claude.plugin; print('tree_sitter_bash' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip() == "True", done.stderr

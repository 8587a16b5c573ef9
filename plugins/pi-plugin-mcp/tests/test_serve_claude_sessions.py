"""Sessions served by `pi mcp serve` in folders with different `.claude` permission rules
(`claudeSettings: true`): each `pi_run` obeys its own folder's rules, whichever ran first, and the
served coding tools obey the served folder's rules too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_serve_client import Served, text_of

from pi_core.testing import chat_stream

MARK = "echo ran > ran.txt"


def claude_folder(root: Path, name: str, settings: str) -> Path:
    """A folder whose `.claude/settings.json` holds `settings` (text, maybe not JSON)."""
    folder = root / name
    (folder / ".claude").mkdir(parents=True)
    (folder / ".claude" / "settings.json").write_text(settings)
    return folder


def rules(**permissions: list[str]) -> str:
    """A `.claude/settings.json` with these permission rules."""
    return json.dumps({"permissions": permissions})


def claude_settings_on(served: Served) -> None:
    """Turn on `claudeSettings` for every served session."""
    settings = served.agent_dir / "settings.json"
    data = json.loads(settings.read_text())
    settings.write_text(json.dumps({**data, "claudeSettings": True}))


def tool_result_of(served: Served, index: int) -> str:
    """The tool result the fake's request number `index` carried (its last message)."""
    message = served.fake.requests[index].json()["messages"][-1]
    assert message["role"] == "tool"
    return json.dumps(message["content"])


async def run_bash_in(served: Served, folders: list[Path]) -> None:
    """One `pi_run` per folder (in that order) in one `pi mcp serve --approve`, each running
    bash."""
    for _ in folders:
        served.fake.queue(chat_stream(tool_calls=[("bash", {"command": MARK})]), chat_stream("ok"))
    async with served.client("--approve") as client:
        for folder in folders:
            result = await client.call_tool("pi_run", {"prompt": "go", "cwd": str(folder)})
            assert not result.is_error, text_of(result)


@pytest.mark.parametrize("deny_first", [True, False])
async def test_each_pi_run_obeys_its_own_folders_claude_rules(
    served: Served, tmp_path: Path, deny_first: bool
) -> None:
    claude_settings_on(served)
    denying = claude_folder(tmp_path, "denying", rules(deny=["Bash"]))
    allowing = claude_folder(tmp_path, "allowing", rules(allow=["Bash"]))
    await run_bash_in(served, [denying, allowing] if deny_first else [allowing, denying])
    assert not (denying / "ran.txt").exists()
    assert (allowing / "ran.txt").read_text() == "ran\n"
    denied = tool_result_of(served, 1 if deny_first else 3)
    assert f"Permission to use Bash with command {MARK} has been denied" in denied


@pytest.mark.parametrize("malformed_first", [True, False])
async def test_a_malformed_claude_settings_file_gates_only_its_own_pi_run(
    served: Served, tmp_path: Path, malformed_first: bool
) -> None:
    claude_settings_on(served)
    malformed = claude_folder(tmp_path, "malformed", '{"permissions": {"allow": ["Bash"]')
    healthy = claude_folder(tmp_path, "healthy", rules(allow=["Bash"]))
    await run_bash_in(served, [malformed, healthy] if malformed_first else [healthy, malformed])
    assert not (malformed / "ran.txt").exists()
    assert (healthy / "ran.txt").read_text() == "ran\n"
    refused = tool_result_of(served, 1 if malformed_first else 3)
    assert f"Claude settings: {malformed / '.claude' / 'settings.json'}: invalid JSON" in refused
    assert "no tool may run until the file is fixed" in refused


async def test_served_coding_tools_obey_the_folders_claude_rules(
    served: Served, tmp_path: Path
) -> None:
    claude_settings_on(served)
    (served.cwd / ".claude").mkdir()
    (served.cwd / ".claude" / "settings.json").write_text(rules(deny=["Bash"]))
    async with served.client("--expose-tools", "--approve") as client:
        bash = await client.call_tool("bash", {"command": MARK})
        read = await client.call_tool("read", {"path": ".claude/settings.json"})
    assert bash.is_error
    assert f"Permission to use Bash with command {MARK} has been denied" in text_of(bash)
    assert not (served.cwd / "ran.txt").exists()
    assert not read.is_error and "deny" in text_of(read)


@pytest.mark.parametrize("broken_first", [True, False])
async def test_a_broken_pi_settings_file_that_sets_claude_settings_closes_its_own_pi_run(
    served: Served, tmp_path: Path, broken_first: bool
) -> None:
    # claudeSettings is off for the process: only the folder's own `.pi/settings.json` turns it
    # on, and in one folder that file is not valid JSON
    broken = claude_folder(tmp_path, "broken", rules(deny=["Bash"]))
    (broken / ".pi").mkdir()
    (broken / ".pi" / "settings.json").write_text('{"claudeSettings": true,}')
    plain = tmp_path / "plain"
    plain.mkdir()
    await run_bash_in(served, [broken, plain] if broken_first else [plain, broken])
    assert not (broken / "ran.txt").exists()
    assert (plain / "ran.txt").read_text() == "ran\n"
    refused = tool_result_of(served, 1 if broken_first else 3)
    assert f"Claude settings: {broken / '.pi' / 'settings.json'}:1:" in refused
    assert "pi cannot tell whether Claude's permission rules apply" in refused

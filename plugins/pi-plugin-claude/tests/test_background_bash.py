"""Bash's run_in_background: the output goes to a file; the command ends with the session."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pi_plugin_claude.profile import create_claude_tools
from pi_plugin_claude.profile.bash import stop_background_commands

from pi_core import PluginManager
from pi_core.testing import execute_tool_call


async def test_a_background_command_writes_its_file_and_is_stopped(
    tmp_path: Path, isolated_agent_dir: Path
) -> None:
    ctx = PluginManager(tmp_path, agent_dir=isolated_agent_dir).ctx
    (bash,) = create_claude_tools(str(tmp_path), ["Bash"])
    command = f"echo first; sleep 30; touch {tmp_path / 'finished'}"
    outcome = await execute_tool_call(
        bash, "t1", {"command": command, "run_in_background": True}, None, None, ctx
    )
    text = outcome.result.text_content()
    assert text.startswith("Command running in background with ID: ")
    output = Path(text.split("Output is being written to: ")[1].split(". To check")[0])
    for _ in range(1500):  # wait for the command's first output to reach the file
        if output.read_text() == "first\n":
            break
        await asyncio.sleep(0.02)
    assert output.read_text() == "first\n"
    assert await stop_background_commands() == 1
    assert not (tmp_path / "finished").exists()
    assert await stop_background_commands() == 0


async def test_a_session_ending_stops_only_its_own_background_commands(
    tmp_path: Path, isolated_agent_dir: Path
) -> None:
    # pi acp and pi mcp serve run several sessions in one process: one closing keeps the others'
    first = PluginManager(tmp_path, agent_dir=isolated_agent_dir).ctx
    second = PluginManager(tmp_path, agent_dir=isolated_agent_dir).ctx
    (bash,) = create_claude_tools(str(tmp_path), ["Bash"])
    for ctx, name in ((first, "first"), (second, "second")):
        command = f"sleep 30; touch {tmp_path / name}"
        arguments = {"command": command, "run_in_background": True}
        outcome = await execute_tool_call(bash, name, arguments, None, None, ctx)
        assert outcome.result.text_content().startswith("Command running in background")
    assert await stop_background_commands(first.events) == 1
    assert await stop_background_commands(first.events) == 0
    assert await stop_background_commands(second.events) == 1
    assert not (tmp_path / "first").exists() and not (tmp_path / "second").exists()

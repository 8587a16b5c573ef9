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

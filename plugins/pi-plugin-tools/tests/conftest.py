"""Fixtures: a session context whose cwd is a temp folder, and a helper that runs a tool call."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_tools import create_tools

from pi_core.abort import AbortSignal
from pi_core.plugins.context import ExtensionContext
from pi_core.plugins.manager import PluginManager
from pi_core.testing import ToolOutcome, execute_tool_call
from pi_core.tools import ToolUpdateCallback

RunTool = Callable[..., Awaitable[ToolOutcome]]


@pytest.fixture(autouse=True)
def isolated_agent_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Keep every test away from the user's ~/.pi."""
    agent = tmp_path_factory.mktemp("agent")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(agent))
    return agent


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """The session's working folder."""
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def ctx(cwd: Path, isolated_agent_dir: Path) -> ExtensionContext:
    """A tool context whose cwd is `cwd` (not the test process's cwd)."""
    return PluginManager(cwd, agent_dir=isolated_agent_dir).ctx


@pytest.fixture
def run(ctx: ExtensionContext) -> RunTool:
    """Run a tool by name the way the agent loop does: validate, execute, errors as results."""
    tools = {tool.name: tool for tool in create_tools()}

    async def run_tool(
        name: str,
        args: dict[str, Any],
        signal: AbortSignal | None = None,
        on_update: ToolUpdateCallback | None = None,
    ) -> ToolOutcome:
        return await execute_tool_call(tools[name], "call-1", args, signal, on_update, ctx)

    return run_tool


def _live_processes(token: str) -> list[tuple[int, int]]:
    """Return (pid, pgid) of running (non-zombie) processes whose command line holds `token`."""
    found: list[tuple[int, int]] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                command = handle.read().replace(b"\0", b" ")
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if token.encode() in command and fields[0] != b"Z":
            found.append((int(entry), int(fields[2])))
    return found


@pytest.fixture
def live_processes() -> Callable[[str], list[tuple[int, int]]]:
    """Scan /proc: (pid, pgid) of running, non-zombie processes whose command holds a token."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc")
    return _live_processes

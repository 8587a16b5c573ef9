"""PI_TRACE_PLUGINS=1 logs every hook call with its plugin, duration and result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pi_core import ToolCallResult, hookimpl, make_tool_call_event
from pi_core.events import SessionStartEvent
from pi_core.plugins.manager import PluginManager
from pi_core.tools import BashToolInput

LINE = re.compile(r"^pi trace: (\w+) (\S+) (\d+\.\d{3}) ms (.*)$")


class Guard:
    @hookimpl
    def tool_call(self, event: object) -> ToolCallResult:
        return ToolCallResult(block=True, reason="no rm")

    @hookimpl
    def session_start(self, event: object) -> None:
        raise RuntimeError("boom")


def traced_manager(tmp_path: Path) -> PluginManager:
    manager = PluginManager(tmp_path, agent_dir=tmp_path / "agent")
    assert manager.register_inline(Guard(), "guard") is not None, manager.errors
    return manager


async def test_each_hook_call_is_logged_to_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PI_TRACE_PLUGINS", "1")
    manager = traced_manager(tmp_path)

    event = make_tool_call_event("bash", "c1", BashToolInput(command="rm -rf x"))
    outcome = await manager.dispatcher.tool_call(event)
    await manager.dispatcher.notify("session_start", SessionStartEvent(reason="startup"))

    assert outcome is not None and outcome.block
    lines = [LINE.match(line) for line in capsys.readouterr().err.splitlines()]
    assert all(lines) and len(lines) == 2
    call, start = [match.groups() for match in lines if match]
    assert call[:2] == ("tool_call", "guard") and "block=True" in call[3]
    assert start[:2] == ("session_start", "guard") and start[3] == "raised RuntimeError('boom')"


async def test_a_path_appends_the_trace_to_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "trace.log"
    monkeypatch.setenv("PI_TRACE_PLUGINS", str(log))
    manager = traced_manager(tmp_path)

    await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c1", BashToolInput(command="ls"))
    )

    assert capsys.readouterr().err == ""
    match = LINE.match(log.read_text().strip())
    assert match is not None and match.group(1) == "tool_call"


async def test_without_the_variable_nothing_is_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PI_TRACE_PLUGINS", raising=False)
    manager = traced_manager(tmp_path)

    await manager.dispatcher.tool_call(
        make_tool_call_event("bash", "c1", BashToolInput(command="ls"))
    )

    assert "pi trace" not in capsys.readouterr().err

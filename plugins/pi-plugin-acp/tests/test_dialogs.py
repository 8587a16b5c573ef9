"""Plugin dialogs in `pi acp`: `ctx.ui.confirm` / `ctx.ui.select` become the editor's
`session/request_permission`, fail closed, and a tool call is asked about once."""

from __future__ import annotations

import json
from typing import Any

import pytest
from acp import text_block
from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)
from acp_test_client import Project, Recorder
from pi_plugin_acp.call_scope import close_scope, open_scope
from pi_plugin_acp.dialogs import AcpDialogUI

from pi_core.testing import chat_stream

MARK = "echo ran > ran.txt"

SELECTING_PLUGIN = """
from pi_core import hookimpl


@hookimpl
async def tool_call(event, ctx):
    if event.tool_name != "bash":
        return None
    choice = await ctx.ui.select("Where should it run?", ["staging", "production"])
    return {"block": True, "reason": f"the plugin was told: {choice}"}
"""

CONFIRMING_PLUGIN = """
from pi_core import hookimpl


@hookimpl
async def before_agent_start(event, ctx):
    if not await ctx.ui.confirm("Start the turn?", "a plugin wants to know"):
        ctx.ui.notify("plugin: the turn was not confirmed", "warning")
"""


class Editor(Recorder):  # type: ignore[misc,valid-type]
    """A client that answers each permission request with `pick(options)` and keeps them all."""

    def __init__(self, pick: Any) -> None:
        super().__init__()
        self.pick = pick
        self.requests: list[tuple[Any, list[PermissionOption], dict[str, Any]]] = []

    async def request_permission(
        self, options: Any, session_id: str, tool_call: Any, **kwargs: Any
    ) -> RequestPermissionResponse:
        self.requests.append((tool_call, list(options), kwargs))
        chosen = self.pick(options)
        if chosen is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=chosen)
        )


def kind(wanted: str) -> Any:
    """Pick the first option of this kind."""
    return lambda options: next(o.option_id for o in options if o.kind == wanted)


def claude_ask_bash(project: Project) -> None:
    """`claudeSettings` on and a `.claude` rule that asks before Bash."""
    settings = project.agent_dir / "settings.json"
    settings.write_text(json.dumps({**json.loads(settings.read_text()), "claudeSettings": True}))
    (project.cwd / ".claude").mkdir()
    (project.cwd / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"ask": ["Bash"]}})
    )


def tool_result_of(project: Project, index: int) -> str:
    """The tool result the fake's request number `index` carried (its last message)."""
    message = project.fake.requests[index].json()["messages"][-1]
    assert message["role"] == "tool"
    return json.dumps(message["content"])


async def run_bash(project: Project, client: Editor) -> str:
    """One prompt whose model runs MARK; returns the id of its tool call."""
    project.fake.queue(chat_stream(tool_calls=[("bash", {"command": MARK})]), chat_stream("ok"))
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert reply.stop_reason == "end_turn"
    start = next(u for u in client.updates if u.session_update == "tool_call")
    return str(start.tool_call_id)


async def test_a_claude_ask_rule_asks_the_editor_once_and_allow_runs(project: Project) -> None:
    claude_ask_bash(project)
    client = Editor(kind("allow_once"))
    call_id = await run_bash(project, client)
    assert (project.cwd / "ran.txt").read_text() == "ran\n"
    assert len(client.requests) == 1  # the ACP gate does not ask again
    tool_call, options, meta = client.requests[0]
    assert tool_call.tool_call_id == call_id
    assert [o.kind for o in options] == ["allow_once", "reject_once"]
    assert meta["pi"]["dialog"]["title"] == "Allow Bash?"


async def test_a_claude_ask_rule_rejected_in_the_editor_refuses_the_call(
    project: Project,
) -> None:
    claude_ask_bash(project)
    client = Editor(kind("reject_once"))
    await run_bash(project, client)
    assert not (project.cwd / "ran.txt").exists()
    assert len(client.requests) == 1
    assert "The user denied Bash" in tool_result_of(project, 1)


async def test_a_cancelled_dialog_refuses_the_call(project: Project) -> None:
    claude_ask_bash(project)
    client = Editor(lambda options: None)
    await run_bash(project, client)
    assert not (project.cwd / "ran.txt").exists()
    assert len(client.requests) == 1
    assert "The user denied Bash" in tool_result_of(project, 1)


async def test_a_plugins_select_reaches_the_editor_with_its_choices(project: Project) -> None:
    extensions = project.cwd / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "selecting.py").write_text(SELECTING_PLUGIN)
    client = Editor(lambda options: next(o.option_id for o in options if o.name == "production"))
    call_id = await run_bash(project, client)
    assert len(client.requests) == 1
    tool_call, options, meta = client.requests[0]
    assert tool_call.tool_call_id == call_id
    assert [o.name for o in options] == ["staging", "production"]
    assert meta["pi"]["dialog"]["title"] == "Where should it run?"
    assert "the plugin was told: production" in tool_result_of(project, 1)
    assert not (project.cwd / "ran.txt").exists()


async def test_a_plugins_select_cancelled_in_the_editor_is_none(project: Project) -> None:
    extensions = project.cwd / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "selecting.py").write_text(SELECTING_PLUGIN)
    await run_bash(project, Editor(lambda options: None))
    assert "the plugin was told: None" in tool_result_of(project, 1)


async def test_a_dialog_outside_a_tool_call_is_a_synthetic_call_titled_by_it(
    project: Project,
) -> None:
    extensions = project.cwd / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "confirming.py").write_text(CONFIRMING_PLUGIN)
    project.fake.queue(chat_stream("hello"))
    client = Editor(kind("allow_once"))
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    ((tool_call, _options, _meta),) = client.requests
    assert tool_call.title == "Start the turn?\na plugin wants to know"
    assert tool_call.kind == "other" and tool_call.status == "pending"
    assert tool_call.tool_call_id.startswith("pi-dialog-")
    # nothing about it reaches the conversation: the client knows no such tool call
    assert all(u.session_update != "tool_call" for u in client.updates)


async def _never_asked(call: Any, options: Any, meta: Any) -> RequestPermissionResponse:
    raise AssertionError("input and editor have no ACP request")


async def _failing(call: Any, options: Any, meta: Any) -> RequestPermissionResponse:
    raise RuntimeError("the editor went away")


async def test_input_and_editor_are_cancelled_and_notify_goes_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ui = AcpDialogUI(_never_asked)
    assert await ui.input("Name?") is None
    assert await ui.editor("Text?", "prefill") is None
    ui.notify("careful", "warning")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "careful" in captured.err and "warning" in captured.err


async def test_a_failed_request_is_no_and_does_not_approve_the_call() -> None:
    ui = AcpDialogUI(_failing)
    scope = open_scope("call-1")
    assert await ui.confirm("Allow?", "") is False
    assert await ui.select("Pick", ["a"]) is None
    assert close_scope("call-1") is scope and scope.approved is False


async def test_an_allowed_confirm_approves_the_call_in_scope() -> None:
    asked: list[ToolCallUpdate] = []

    async def allow(call: Any, options: Any, meta: Any) -> RequestPermissionResponse:
        asked.append(call)
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id="allow")
        )

    ui = AcpDialogUI(allow)
    scope = open_scope("call-2")
    assert await ui.confirm("Allow?", "rm -rf build") is True
    assert close_scope("call-2") is scope and scope.approved is True
    assert [c.tool_call_id for c in asked] == ["call-2"]


async def test_plan_mode_refuses_before_a_plugin_asks(project: Project) -> None:
    claude_ask_bash(project)
    project.fake.queue(chat_stream(tool_calls=[("bash", {"command": MARK})]), chat_stream("ok"))
    client = Editor(kind("allow_once"))
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="plan")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert client.requests == []
    assert "plan (read-only) mode" in tool_result_of(project, 1)


BLOCKING_PLUGIN = """
from pi_core import hookimpl


@hookimpl
def tool_call(event):
    return {"block": True, "reason": "blocked by a plugin"}


@hookimpl
async def turn_end(event, ctx):
    await ctx.ui.confirm("Keep going?", "after the turn")
"""


async def test_a_dialog_after_a_blocked_call_is_not_about_that_call(project: Project) -> None:
    extensions = project.cwd / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "blocking.py").write_text(BLOCKING_PLUGIN)
    client = Editor(kind("allow_once"))
    await run_bash(project, client)
    assert "blocked by a plugin" in tool_result_of(project, 1)
    assert client.requests, "the turn_end dialog reached the editor"
    for tool_call, _options, _meta in client.requests:
        assert tool_call.tool_call_id.startswith("pi-dialog-")
        assert tool_call.title == "Keep going?\nafter the turn"

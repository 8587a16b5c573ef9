"""`pi acp` sessions beyond the basics, driven by the ACP SDK's client against the loopback fake:
the editor's MCP servers per session (real MCP server processes), session modes enforced by the
permission gate, and fork (`session/fork`, `_pi/fork`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from acp import RequestError, text_block
from acp.schema import EnvVariable, HttpMcpServer, McpServerStdio
from acp_test_client import Project, Recorder

from pi_core.testing import chat_stream

DEMO = Path(__file__).parents[2] / "pi-plugin-mcp" / "tests" / "servers" / "demo_server.py"


def demo_server(name: str, pidfile: Path) -> McpServerStdio:
    """The MCP demo server over stdio, writing its process id to `pidfile` when it starts."""
    return McpServerStdio(
        name=name,
        command=sys.executable,
        args=[str(DEMO), "stdio"],
        env=[EnvVariable(name="MCP_DEMO_PIDFILE", value=str(pidfile))],
    )


def tool_names(project: Project, index: int) -> set[str]:
    """The tools the fake's request number `index` offered the model."""
    body = project.fake.requests[index].json()
    return {tool["function"]["name"] for tool in body.get("tools", [])}


def tool_results(project: Project, index: int) -> list[str]:
    """The text of each tool result the fake's request number `index` carried."""
    return [
        json.dumps(message["content"])
        for message in project.fake.requests[index].json()["messages"]
        if message["role"] == "tool"
    ]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# --- the editor's MCP servers ----------------------------------------------------------------


async def test_each_session_gets_only_its_own_editor_mcp_servers(
    project: Project, tmp_path: Path
) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("mcp__alpha__echo", {"text": "from alpha"})]),
        chat_stream("alpha answered"),
        chat_stream("beta here"),
    )
    client = Recorder("allow_once")
    async with project.agent(client) as conn:
        a = await conn.new_session(
            cwd=str(project.cwd), mcp_servers=[demo_server("alpha", tmp_path / "alpha.pid")]
        )
        b = await conn.new_session(
            cwd=str(project.cwd), mcp_servers=[demo_server("beta", tmp_path / "beta.pid")]
        )
        await conn.prompt(session_id=a.session_id, prompt=[text_block("use alpha")])
        await conn.prompt(session_id=b.session_id, prompt=[text_block("hello beta")])
        alpha_pid = int((tmp_path / "alpha.pid").read_text())
        beta_pid = int((tmp_path / "beta.pid").read_text())
        await conn.close_session(session_id=a.session_id)
        alpha_after_close, beta_after_close = alive(alpha_pid), alive(beta_pid)
    assert project.initialized is not None
    capabilities = project.initialized.agent_capabilities
    assert capabilities is not None and capabilities.mcp_capabilities is not None
    assert capabilities.mcp_capabilities.http and capabilities.mcp_capabilities.sse
    assert "mcp__alpha__echo" in tool_names(project, 0)
    assert not any(name.startswith("mcp__beta__") for name in tool_names(project, 0))
    assert "echo: from alpha" in project.sent_texts(1)  # the tool ran on alpha's server
    assert "mcp__beta__echo" in tool_names(project, 2)
    assert not any(name.startswith("mcp__alpha__") for name in tool_names(project, 2))
    assert not alpha_after_close  # closing a session stops its servers
    assert beta_after_close  # and only its own
    assert not alive(beta_pid)  # the rest stop with the agent


async def test_load_and_resume_start_the_servers_the_editor_names(
    project: Project, tmp_path: Path
) -> None:
    project.fake.queue(chat_stream("first"), chat_stream("after load"), chat_stream("resumed"))
    async with project.agent(Recorder()) as conn:
        made = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=made.session_id, prompt=[text_block("start")])
    async with project.agent(Recorder()) as conn:
        await conn.load_session(
            cwd=str(project.cwd),
            session_id=made.session_id,
            mcp_servers=[demo_server("loaded", tmp_path / "loaded.pid")],
        )
        await conn.prompt(session_id=made.session_id, prompt=[text_block("again")])
    async with project.agent(Recorder()) as conn:
        await conn.resume_session(
            cwd=str(project.cwd),
            session_id=made.session_id,
            mcp_servers=[demo_server("resumed", tmp_path / "resumed.pid")],
        )
        await conn.prompt(session_id=made.session_id, prompt=[text_block("once more")])
    assert not any(name.startswith("mcp__") for name in tool_names(project, 0))
    assert "mcp__loaded__echo" in tool_names(project, 1)
    assert "mcp__resumed__echo" in tool_names(project, 2)
    assert "mcp__loaded__echo" not in tool_names(project, 2)


async def test_an_http_server_from_the_editor_is_used(project: Project, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, str(DEMO), "http"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # printed once the socket listens
        url = f"http://127.0.0.1:{int(line.split()[1])}/mcp"
        project.fake.queue(
            chat_stream(tool_calls=[("mcp__web__add", {"a": 2, "b": 3})]), chat_stream("5")
        )
        async with project.agent(Recorder("allow_once")) as conn:
            session = await conn.new_session(
                cwd=str(project.cwd),
                mcp_servers=[HttpMcpServer(type="http", name="web", url=url, headers=[])],
            )
            await conn.prompt(session_id=session.session_id, prompt=[text_block("add")])
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "mcp__web__add" in tool_names(project, 0)
    assert any("total" in text and "5" in text for text in tool_results(project, 1))


# --- modes -----------------------------------------------------------------------------------


async def test_modes_are_announced_and_plan_mode_refuses_changes_without_asking(
    project: Project,
) -> None:
    project.fake.queue(
        chat_stream(
            tool_calls=[
                ("read", {"path": "seen.txt"}),
                ("write", {"path": "plan.txt", "content": "x"}),
                ("bash", {"command": "touch ran.txt"}),
            ]
        ),
        chat_stream("planned"),
    )
    (project.cwd / "seen.txt").write_text("visible\n")
    client = Recorder("allow_once")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="plan")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("plan it")])
        with pytest.raises(RequestError):
            await conn.set_session_mode(session_id=session.session_id, mode_id="yolo")
    assert session.modes is not None
    assert session.modes.current_mode_id == "default"
    assert [m.id for m in session.modes.available_modes] == ["default", "acceptEdits", "plan"]
    announced = [u for u in client.updates if u.session_update == "current_mode_update"]
    assert [u.current_mode_id for u in announced] == ["plan"]
    assert client.asked == []
    assert not (project.cwd / "plan.txt").exists()
    assert not (project.cwd / "ran.txt").exists()
    sent = project.sent_texts(1)
    assert "visible" in sent  # reading still works
    assert "plan (read-only) mode" in sent


async def test_accept_edits_writes_in_the_project_without_asking_and_asks_for_the_rest(
    project: Project,
) -> None:
    project.fake.queue(
        chat_stream(
            tool_calls=[
                ("write", {"path": "inside.txt", "content": "in\n"}),
                ("write", {"path": "../outside.txt", "content": "out\n"}),
                ("bash", {"command": "touch ran.txt"}),
            ]
        ),
        chat_stream("done"),
    )
    client = Recorder("reject_once")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="acceptEdits")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("edit")])
    assert (project.cwd / "inside.txt").read_text() == "in\n"
    assert not (project.cwd.parent / "outside.txt").exists()
    assert not (project.cwd / "ran.txt").exists()
    assert len(client.asked) == 2  # the write outside the folder and the command


async def test_a_saved_rejection_wins_over_accept_edits(project: Project) -> None:
    (project.agent_dir / "acp-permissions.json").write_text(
        json.dumps({"allow": [], "reject": ["write"]})
    )
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "inside.txt", "content": "in\n"})]),
        chat_stream("ok"),
    )
    client = Recorder("allow_once")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="acceptEdits")
        await conn.prompt(session_id=session.session_id, prompt=[text_block("edit")])
    assert not (project.cwd / "inside.txt").exists()
    assert client.asked == []


# --- fork ------------------------------------------------------------------------------------


async def test_pi_fork_at_a_message_starts_a_session_whose_history_ends_there(
    project: Project,
) -> None:
    project.fake.queue(
        chat_stream("answer one"),
        chat_stream("answer two"),
        chat_stream("forked reply"),
        chat_stream("original reply"),
    )
    client = Recorder()
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        sid = session.session_id
        await conn.prompt(session_id=sid, prompt=[text_block("question one")])
        await conn.prompt(session_id=sid, prompt=[text_block("question two")])
        forked = await conn.ext_method("pi/fork", {"sessionId": sid, "messageIndex": 1})
        fork_id = forked["sessionId"]
        await conn.prompt(session_id=fork_id, prompt=[text_block("in the fork")])
        await conn.prompt(session_id=sid, prompt=[text_block("in the original")])
        with pytest.raises(RequestError):
            await conn.ext_method("pi/fork", {"sessionId": sid, "messageIndex": 99})
        listed = await conn.list_sessions(cwd=str(project.cwd))
    assert fork_id != sid
    in_fork = project.sent_texts(2)
    assert "question one" in in_fork and "answer one" in in_fork
    assert "question two" not in in_fork and "answer two" not in in_fork
    in_original = project.sent_texts(3)
    assert "question two" in in_original and "in the fork" not in in_original
    assert {fork_id, sid} <= {s.session_id for s in listed.sessions}
    header = json.loads(
        next(p for p in project.agent_dir.glob("sessions/**/*.jsonl") if fork_id in p.name)
        .read_text()
        .splitlines()[0]
    )
    assert header.get("parentSession")  # pi's fork: the new file names the old one


async def test_session_fork_copies_the_whole_history_of_a_saved_session(
    project: Project,
) -> None:
    project.fake.queue(chat_stream("first answer"), chat_stream("fork goes on"))
    async with project.agent(Recorder()) as conn:
        made = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=made.session_id, prompt=[text_block("first question")])
    async with project.agent(Recorder()) as conn:  # a fresh process: the session is saved only
        forked = await conn.fork_session(
            cwd=str(project.cwd), session_id=made.session_id, mcp_servers=[]
        )
        await conn.prompt(session_id=forked.session_id, prompt=[text_block("next")])
    assert project.initialized is not None
    capabilities = project.initialized.agent_capabilities
    assert capabilities is not None and capabilities.session_capabilities is not None
    assert capabilities.session_capabilities.fork is not None
    assert forked.session_id != made.session_id
    assert forked.modes is not None and forked.modes.current_mode_id == "default"
    sent = project.sent_texts(1)
    assert "first question" in sent and "first answer" in sent and "next" in sent

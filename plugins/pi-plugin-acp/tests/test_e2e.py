"""`pi acp` as a subprocess, driven by the ACP SDK's own client, against the loopback fake
model; every message pi sends is validated against the SDK's schema models."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from acp import PROTOCOL_VERSION, RequestError, spawn_agent_process, text_block
from acp.schema import (
    ClientCapabilities,
    FileSystemCapabilities,
)
from acp_test_client import SESSION_WIDE, Project, Recorder

from pi_core.testing import (
    FakeLLMServer,
    chat_error,
    chat_models_json,
    chat_stream,
    console_script,
)


async def test_prompt_streams_text_and_ends_the_turn(project: Project) -> None:
    project.fake.queue(chat_stream("Hello from pi", reasoning="let me think"))
    client = Recorder()
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi there")])
    assert reply.stop_reason == "end_turn"
    said = "".join(
        u.content.text for u in client.updates if u.session_update == "agent_message_chunk"
    )
    thought = "".join(
        u.content.text for u in client.updates if u.session_update == "agent_thought_chunk"
    )
    assert said == "Hello from pi"
    assert thought == "let me think"
    assert "hi there" in project.sent_texts(0)


async def test_allowed_write_runs_and_is_reported_as_a_diff(project: Project) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "notes.txt", "content": "new text\n"})]),
        chat_stream("written"),
    )
    client = Recorder("allow_once")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("write it")])
    assert reply.stop_reason == "end_turn"
    assert (project.cwd / "notes.txt").read_text() == "new text\n"
    assert len(client.asked) == 1
    start = next(u for u in client.updates if u.session_update == "tool_call")
    assert (start.kind, start.status) == ("edit", "pending")
    assert start.locations[0].path == str(project.cwd / "notes.txt")
    statuses = [u.status for u in client.updates if u.session_update == "tool_call_update"]
    assert statuses == ["in_progress", "completed"]
    done = [u for u in client.updates if u.session_update == "tool_call_update"][-1]
    assert done.content[0].type == "diff"
    assert done.content[0].new_text == "new text\n"
    assert client.kinds().index("tool_call") < client.kinds().index("tool_call_update")


async def test_denied_write_is_not_run_and_the_model_is_told(project: Project) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "notes.txt", "content": "x"})]),
        chat_stream("ok, I will not"),
    )
    client = Recorder("reject_once")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("write it")])
    assert reply.stop_reason == "end_turn"
    assert not (project.cwd / "notes.txt").exists()
    assert "denied permission" in project.sent_texts(1)
    statuses = [u.status for u in client.updates if u.session_update == "tool_call_update"]
    assert statuses == ["failed"]


async def test_allow_always_is_remembered_across_processes(project: Project) -> None:
    call = [("write", {"path": "a.txt", "content": "1"})]
    project.fake.queue(chat_stream(tool_calls=call), chat_stream("done"))
    first = Recorder("allow_always")
    async with project.agent(first) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "b.txt", "content": "2"})]), chat_stream("done")
    )
    second = Recorder("reject_once")
    async with project.agent(second) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert second.asked == []
    assert (project.cwd / "b.txt").read_text() == "2"


async def test_cancel_while_permission_is_asked_stops_the_turn(project: Project) -> None:
    project.fake.queue(chat_stream(tool_calls=[("write", {"path": "c.txt", "content": "x"})]))
    client = Recorder()
    client.hold = True
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        turn = asyncio.ensure_future(
            conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        )
        await client.tool_announced.wait()
        await conn.cancel(session_id=session.session_id)
        client.release.set()
        reply = await turn
    assert reply.stop_reason == "cancelled"
    assert not (project.cwd / "c.txt").exists()


async def test_list_then_load_in_a_fresh_process_replays_the_conversation(
    project: Project,
) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "d.txt", "content": "x"})]),
        chat_stream("all done"),
    )
    async with project.agent(Recorder()) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("make d")])
    replayed = Recorder()
    async with project.agent(replayed) as conn:
        listed = await conn.list_sessions(cwd=str(project.cwd))
        assert [s.session_id for s in listed.sessions] == [session.session_id]
        await conn.load_session(cwd=str(project.cwd), session_id=session.session_id, mcp_servers=[])
    assert replayed.kinds() == [
        "user_message_chunk",
        "tool_call",
        "tool_call_update",
        "agent_message_chunk",
    ]
    chunks = [u for u in replayed.updates if u.session_update not in SESSION_WIDE]
    assert chunks[0].content.text == "make d"
    assert chunks[3].content.text == "all done"


async def test_model_and_thinking_level_are_config_options(project: Project) -> None:
    models = chat_models_json(project.fake.base_url, reasoning=True)
    (project.agent_dir / "models.json").write_text(json.dumps(models))
    async with project.agent(Recorder()) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        options = {o.id: o for o in session.config_options or []}
        assert options["model"].current_value == "fake/fake-model"
        assert "fake/fake-model" in [o.value for o in options["model"].options]
        levels = [o.value for o in options["thought_level"].options]
        current = options["thought_level"].current_value
        other = next(level for level in levels if level != current)
        reply = await conn.set_config_option(
            config_id="thought_level", session_id=session.session_id, value=other
        )
        changed = {o.id: o for o in reply.config_options}
        assert changed["thought_level"].current_value == other
        with pytest.raises(RequestError) as refused:
            await conn.set_config_option(
                config_id="model", session_id=session.session_id, value="nope/none"
            )
        assert "unknown model" in str(refused.value.data)


async def test_resume_continues_a_saved_session_without_replay(project: Project) -> None:
    project.fake.queue(chat_stream("first answer"), chat_stream("second answer"))
    async with project.agent(Recorder()) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("one")])
        await conn.close_session(session_id=session.session_id)
    resumed = Recorder()
    async with project.agent(resumed) as conn:
        await conn.resume_session(cwd=str(project.cwd), session_id=session.session_id)
        assert resumed.kinds() == []
        await conn.prompt(session_id=session.session_id, prompt=[text_block("two")])
    assert "first answer" in project.sent_texts(1)
    assert "two" in project.sent_texts(1)


async def test_files_go_through_the_editors_buffers_when_it_offers_fs(project: Project) -> None:
    (project.cwd / "buf.txt").write_text("what the disk says\n")
    project.fake.queue(
        chat_stream(tool_calls=[("read", {"path": "buf.txt"})]),
        chat_stream(
            tool_calls=[
                (
                    "edit",
                    {"path": "buf.txt", "edits": [{"oldText": "unsaved", "newText": "edited"}]},
                )
            ]
        ),
        chat_stream("done"),
    )
    client = Recorder("allow_once")
    path = str(project.cwd / "buf.txt")
    client.buffers[path] = "what the editor's unsaved buffer says\n"
    fs = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=True, write_text_file=True))
    async with project.agent(client, fs) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("look")])
    assert reply.stop_reason == "end_turn"
    assert "unsaved buffer says" in project.sent_texts(1)
    assert "what the disk says" not in project.sent_texts(1)
    assert client.buffers[path] == "what the editor's edited buffer says\n"
    assert (project.cwd / "buf.txt").read_text() == "what the disk says\n"
    assert set(client.reads) == {path}
    done = [u for u in client.updates if u.session_update == "tool_call_update"][-1]
    assert done.status == "completed"
    assert all(block.type != "diff" for block in done.content or [])


async def test_commands_usage_and_title_are_reported(project: Project) -> None:
    prompts = project.cwd / ".pi" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "review.md").write_text("---\ndescription: Review the diff\n---\nReview $@\n")
    project.fake.queue(chat_stream("looks fine", usage=(1200, 30)))
    client = Recorder()
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("/review main.py")])
    offered = next(u for u in client.updates if u.session_update == "available_commands_update")
    assert ("review", "Review the diff") in [
        (c.name, c.description) for c in offered.available_commands
    ]
    assert "Review main.py" in project.sent_texts(0)
    used = [u for u in client.updates if u.session_update == "usage_update"]
    assert (used[-1].used, used[-1].size) == (1230, 128000)
    titles = [u.title for u in client.updates if u.session_update == "session_info_update"]
    assert titles == ["Review main.py"]


NOISY_PLUGIN = """
from pi_core import hookimpl

print("noise while loading")


@hookimpl
def before_agent_start(event):
    print("noise during a turn")
"""


async def test_a_plugin_printing_to_stdout_does_not_corrupt_the_protocol(
    project: Project, tmp_path: Path
) -> None:
    extensions = project.cwd / ".pi" / "extensions"
    extensions.mkdir(parents=True)
    (extensions / "noisy.py").write_text(NOISY_PLUGIN)
    project.fake.queue(chat_stream("still fine"))
    client = Recorder()
    errors = tmp_path / "stderr.txt"
    with errors.open("wb") as sink:
        async with spawn_agent_process(
            client,
            console_script("pi"),
            "acp",
            env=project.env,
            cwd=str(project.cwd),
            transport_kwargs={"stderr": sink},
            observers=[project.wire],
        ) as (conn, _process):
            await asyncio.wait_for(conn.initialize(protocol_version=PROTOCOL_VERSION), 30)
            session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
            reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert reply.stop_reason == "end_turn"
    said = [u.content.text for u in client.updates if u.session_update == "agent_message_chunk"]
    assert "".join(said) == "still fine"
    assert "noise while loading" in errors.read_text()
    assert "noise during a turn" in errors.read_text()


async def test_bash_runs_in_the_editors_terminal_when_it_offers_one(project: Project) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("bash", {"command": "echo hi"})]), chat_stream("ran it")
    )
    client = Recorder("allow_once")
    async with project.agent(client, ClientCapabilities(terminal=True)) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("run")])
    assert reply.stop_reason == "end_turn"
    assert client.terminals == [["bash", "-c", "echo hi", str(project.cwd)]]
    assert client.released == ["term-1"]
    assert "output of the editor's terminal" in project.sent_texts(1)
    start = next(u for u in client.updates if u.session_update == "tool_call")
    assert (start.kind, start.title) == ("execute", "bash: echo hi")


async def test_steer_reaches_the_model_after_the_running_tool(project: Project) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("bash", {"command": "make"})]), chat_stream("noted")
    )
    client = Recorder("allow_once")
    client.terminal_release.clear()
    async with project.agent(client, ClientCapabilities(terminal=True)) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        turn = asyncio.ensure_future(
            conn.prompt(session_id=session.session_id, prompt=[text_block("build")])
        )
        await client.terminal_started.wait()
        answer = await conn.ext_method(
            "pi/steer", {"sessionId": session.session_id, "text": "use the debug target"}
        )
        client.terminal_release.set()
        reply = await turn
        with pytest.raises(RequestError):
            await conn.ext_method("pi/steer", {"sessionId": session.session_id, "text": ""})
        with pytest.raises(RequestError) as idle:
            await conn.ext_method(
                "pi/follow_up", {"sessionId": session.session_id, "text": "later"}
            )
        assert "no turn is running" in str(idle.value.data)
    assert answer == {"queued": True}
    assert reply.stop_reason == "end_turn"
    assert "use the debug target" in project.sent_texts(1)
    assert "use the debug target" not in project.sent_texts(0)


async def test_cancel_while_a_command_runs_kills_its_terminal(project: Project) -> None:
    project.fake.queue(chat_stream(tool_calls=[("bash", {"command": "sleep 100"})]))
    client = Recorder("allow_once")
    client.terminal_release.clear()
    async with project.agent(client, ClientCapabilities(terminal=True)) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        turn = asyncio.ensure_future(
            conn.prompt(session_id=session.session_id, prompt=[text_block("wait")])
        )
        await client.terminal_started.wait()
        await conn.cancel(session_id=session.session_id)
        reply = await turn
    assert reply.stop_reason == "cancelled"
    assert client.killed == ["term-1"]
    assert client.released == ["term-1"]
    assert len(project.fake.requests) == 1


async def test_a_failing_permission_request_denies_the_tool(project: Project) -> None:
    project.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "e.txt", "content": "x"})]),
        chat_stream("understood"),
    )
    client = Recorder("fail")
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("write")])
    assert reply.stop_reason == "end_turn"
    assert len(client.asked) == 1
    assert not (project.cwd / "e.txt").exists()
    assert "denied permission" in project.sent_texts(1)


def _agent_folder(root: Path, fake: FakeLLMServer, *model_ids: str) -> Path:
    """An agent folder whose models.json offers `model_ids` of the fake provider, no default."""
    folder = root / "client-agent"
    folder.mkdir()
    models = chat_models_json(fake.base_url, model_ids[0], reasoning=True)
    for model_id in model_ids[1:]:
        models["providers"]["fake"]["models"].append(
            {"id": model_id, "name": model_id, "contextWindow": 128000, "maxTokens": 4096,
             "reasoning": True}
        )  # fmt: skip
    (folder / "models.json").write_text(json.dumps(models))
    return folder


def _empty_agent_folder(project: Project) -> None:
    (project.agent_dir / "models.json").unlink()
    (project.agent_dir / "settings.json").unlink()


async def test_initialize_offers_the_terminal_login(project: Project) -> None:
    async with project.agent(Recorder()):
        reply = project.initialized
    assert reply is not None and reply.auth_methods
    (method,) = reply.auth_methods
    dumped = method.model_dump(by_alias=True, exclude_none=True)
    assert dumped["type"] == "terminal"
    assert dumped["args"] == ["--login"]
    assert dumped["id"] and dumped["name"]


async def test_the_uvx_script_is_the_same_agent(project: Project) -> None:
    # the ACP registry's uvx distribution runs the script named like the package, no arguments
    project.fake.queue(chat_stream("Hello over uvx"))
    client = Recorder()
    async with spawn_agent_process(
        client,
        console_script("pi-plugin-acp"),
        env=project.env,
        cwd=str(project.cwd),
        observers=[project.wire],
    ) as (conn, _process):
        init = await asyncio.wait_for(conn.initialize(protocol_version=PROTOCOL_VERSION), 30)
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert [m.model_dump(by_alias=True)["args"] for m in init.auth_methods or []] == [["--login"]]
    assert reply.stop_reason == "end_turn"
    said = "".join(
        u.content.text for u in client.updates if u.session_update == "agent_message_chunk"
    )
    assert said == "Hello over uvx"


async def test_meta_names_the_agent_folder_and_the_model(project: Project, tmp_path: Path) -> None:
    # the environment's agent folder has no model: only the client's `_meta` makes it work
    _empty_agent_folder(project)
    folder = _agent_folder(tmp_path, project.fake, "fake-model", "second-model")
    project.fake.queue(chat_stream("from the second model"))
    client = Recorder()
    async with project.agent(client, pi={"agentDir": str(folder)}) as conn:
        session = await conn.new_session(
            cwd=str(project.cwd),
            mcp_servers=[],
            pi={"model": "fake/second-model", "thinkingLevel": "high"},
        )
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert reply.stop_reason == "end_turn"
    sent = project.fake.requests[0].json()
    assert sent["model"] == "second-model"
    assert sent["reasoning_effort"] == "high"
    options = {o.id: o.current_value for o in session.config_options or []}
    assert options["model"] == "fake/second-model"
    assert options["thought_level"] == "high"
    assert list(folder.glob("sessions/**/*.jsonl"))  # saved in the client's agent folder
    assert not list(project.agent_dir.glob("sessions/**/*.jsonl"))


async def test_no_model_is_an_auth_required_error_saying_what_to_do(project: Project) -> None:
    _empty_agent_folder(project)
    project.env.pop("OPENAI_API_KEY", None)
    project.env["PI_LOCAL_SERVERS"] = "127.0.0.1:9"
    async with project.agent(Recorder()) as conn:
        with pytest.raises(RequestError) as raised:
            await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
    assert raised.value.code == -32000  # the SDK's `auth_required`
    message = json.dumps(raised.value.data)
    assert "pi acp --login" in message and "_meta" in message and "model" in message
    assert project.fake.requests == []


async def test_a_prompt_without_a_model_is_the_same_error(project: Project) -> None:
    project.fake.queue(chat_stream("saved"))
    async with project.agent(Recorder()) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    _empty_agent_folder(project)  # the model is gone when the session is resumed
    project.env["PI_LOCAL_SERVERS"] = "127.0.0.1:9"
    async with project.agent(Recorder()) as conn:
        await conn.resume_session(cwd=str(project.cwd), session_id=session.session_id)
        with pytest.raises(RequestError) as raised:
            await conn.prompt(session_id=session.session_id, prompt=[text_block("again")])
    assert raised.value.code == -32000
    assert "pi acp --login" in json.dumps(raised.value.data)
    assert len(project.fake.requests) == 1


def _progress(client: Recorder, prefix: str) -> list[Any]:
    calls = {
        u.tool_call_id
        for u in client.updates
        if u.session_update == "tool_call" and u.tool_call_id.startswith(prefix)
    }
    return [u for u in client.updates if getattr(u, "tool_call_id", None) in calls]


async def test_a_retry_is_shown_as_a_tool_call(project: Project) -> None:
    (project.agent_dir / "settings.json").write_text(
        json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model",
                    "retry": {"baseDelayMs": 10, "provider": {"maxRetries": 0}}})
    )  # fmt: skip
    project.fake.queue(chat_error(503, "overloaded"), chat_stream("Recovered"))
    client = Recorder()
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        reply = await conn.prompt(session_id=session.session_id, prompt=[text_block("hi")])
    assert reply.stop_reason == "end_turn"
    assert len(project.fake.requests) == 2
    start, *rest = _progress(client, "pi-retry-")
    assert start.kind == "other" and start.status == "in_progress"
    assert "Retrying" in start.title and "overloaded" in start.title
    assert rest[-1].session_update == "tool_call_update" and rest[-1].status == "completed"


async def test_a_compaction_is_shown_as_a_tool_call(project: Project) -> None:
    (project.agent_dir / "models.json").write_text(
        json.dumps(chat_models_json(project.fake.base_url, contextWindow=4000))
    )
    (project.agent_dir / "settings.json").write_text(
        json.dumps({"defaultProvider": "fake", "defaultModel": "fake-model",
                    "compaction": {"keepRecentTokens": 50, "reserveTokens": 1000}})
    )  # fmt: skip
    project.fake.queue(
        chat_stream("First answer " + "word " * 200),
        chat_stream("Short.", usage=(3500, 10)),  # 3510 > 4000 - 1000: over the threshold
        chat_stream("## Goal\nThe summary."),
    )
    client = Recorder()
    async with project.agent(client) as conn:
        session = await conn.new_session(cwd=str(project.cwd), mcp_servers=[])
        for text in ("First question " + "word " * 200, "Second question " + "more " * 80):
            await conn.prompt(session_id=session.session_id, prompt=[text_block(text)])
        await asyncio.wait_for(_until(lambda: len(_progress(client, "pi-compaction-")) >= 2), 30)
    start, *rest = _progress(client, "pi-compaction-")
    assert start.kind == "other" and "Compacting" in start.title
    assert rest[-1].status == "completed", rest


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.05)

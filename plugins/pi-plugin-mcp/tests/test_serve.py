"""`pi mcp serve`, driven by the `mcp` SDK's own client, against the loopback fake model."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp_serve_client import Served, text_of

from pi_core.testing import chat_models_json, chat_stream, console_script


async def test_lists_pi_run_and_pi_reply_with_their_schemas(served: Served) -> None:
    async with served.client() as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == {"pi_run", "pi_reply"}
    run = tools["pi_run"].input_schema
    assert run["required"] == ["prompt", "cwd"]
    assert set(run["properties"]) == {"prompt", "cwd", "model", "tools", "max_cost", "timeout_s"}
    assert tools["pi_reply"].input_schema["required"] == ["session_id", "prompt"]


async def test_a_write_is_declined_without_approve_and_progress_is_reported(
    served: Served,
) -> None:
    served.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "made.txt", "content": "hi"})]),
        chat_stream("I could not write it."),
    )
    progress: list[tuple[float, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async with served.client() as client:
        result = await client.call_tool(
            "pi_run", {"prompt": "Make a file", "cwd": str(served.cwd)},
            progress_callback=on_progress,
        )  # fmt: skip
    assert not result.is_error, text_of(result)
    facts = result.structured_content
    assert facts["text"] == "I could not write it."
    assert facts["status"] == "completed"
    assert not (served.cwd / "made.txt").exists()
    # the model read the gate's reason as the tool's error
    tool_result = served.fake.requests[1].json()["messages"][-1]
    assert tool_result["role"] == "tool"
    assert "declined" in json.dumps(tool_result) and "--approve" in json.dumps(tool_result)
    # a real pi session, saved as a file
    assert Path(facts["sessionFile"]).is_file()
    assert facts["sessionId"] in Path(facts["sessionFile"]).read_text()
    assert facts["usage"]["input"] == 20 and facts["usage"]["output"] == 10
    assert facts["patch"] == ""
    messages = [message for _, message in progress]
    assert messages == [
        f"session {facts['sessionId']} started",
        "tool write started",
        "tool write failed",
        "text: I could not write it.",
    ], messages
    assert [value for value, _ in progress] == [1, 2, 3, 4]


async def test_read_only_tools_run_without_approve_with_the_tools_and_model_asked_for(
    served: Served,
) -> None:
    (served.cwd / "notes.txt").write_text("the secret is 42\n")
    served.fake.queue(
        chat_stream(tool_calls=[("read", {"path": "notes.txt"})]), chat_stream("It is 42.")
    )
    async with served.client() as client:
        result = await client.call_tool(
            "pi_run",
            {"prompt": "Read it", "cwd": str(served.cwd), "model": "fake/fake-model",
             "tools": ["read", "write"]},
        )  # fmt: skip
        unknown = await client.call_tool(
            "pi_run", {"prompt": "x", "cwd": str(served.cwd), "model": "fake/no-such-model"}
        )
    assert result.structured_content["text"] == "It is 42."
    first = served.fake.requests[0].json()
    assert first["model"] == "fake-model"
    assert sorted(tool["function"]["name"] for tool in first["tools"]) == ["read", "write"]
    tool_result = served.fake.requests[1].json()["messages"][-1]
    assert tool_result["role"] == "tool" and "the secret is 42" in json.dumps(tool_result)
    assert unknown.is_error and "no-such-model" in text_of(unknown)
    assert len(served.fake.requests) == 2


async def test_a_write_is_allowed_with_approve_and_the_patch_shows_it(served: Served) -> None:
    served.fake.queue(
        chat_stream(tool_calls=[("write", {"path": "made.txt", "content": "hi\n"})]),
        chat_stream("Written."),
    )
    async with served.client("--approve") as client:
        result = await client.call_tool("pi_run", {"prompt": "Make a file", "cwd": str(served.cwd)})
    assert not result.is_error, text_of(result)
    assert (served.cwd / "made.txt").read_text() == "hi\n"
    patch = result.structured_content["patch"]
    assert "+++ b/made.txt" in patch and "+hi" in patch
    assert result.content[0].text == "Written."


async def test_outside_a_git_repository_there_is_no_patch(served: Served, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    served.fake.queue(chat_stream("Done."))
    async with served.client() as client:
        result = await client.call_tool("pi_run", {"prompt": "Hi", "cwd": str(plain)})
        missing = await client.call_tool("pi_run", {"prompt": "Hi", "cwd": str(plain / "nope")})
    assert result.structured_content["text"] == "Done."
    assert "patch" not in result.structured_content
    assert len(result.content) == 2  # the answer and the facts, no patch
    assert missing.is_error and "is not a folder" in text_of(missing)


async def test_pi_reply_continues_the_session(served: Served) -> None:
    served.fake.queue(chat_stream("First answer."), chat_stream("Second answer."))
    async with served.client() as client:
        first = await client.call_tool(
            "pi_run", {"prompt": "First question", "cwd": str(served.cwd)}
        )
        session_id = first.structured_content["sessionId"]
        second = await client.call_tool(
            "pi_reply", {"session_id": session_id, "prompt": "Second question"}
        )
        unknown = await client.call_tool("pi_reply", {"session_id": "nope", "prompt": "x"})
    assert second.structured_content["text"] == "Second answer."
    assert second.structured_content["sessionId"] == session_id
    texts = served.request_texts(1)
    assert texts[-3:] == ["First question", "First answer.", "Second question"]
    assert unknown.is_error and "nope" in text_of(unknown)


async def test_timeout_aborts_the_run_and_says_so(served: Served) -> None:
    held = chat_stream("This never arrives in full.", pause_after_chunks=1)
    served.fake.queue(held)
    async with served.client() as client:
        call = asyncio.create_task(
            client.call_tool(
                "pi_run", {"prompt": "Take long", "cwd": str(served.cwd), "timeout_s": 0.5}
            )
        )
        await held.until_paused()  # the model is answering, and holds until released
        result = await call
    held.resume()
    assert not result.is_error, text_of(result)
    assert result.structured_content["status"] == "timeout"
    assert '"status": "timeout"' in text_of(result)


async def test_a_cancelled_call_aborts_its_run_and_the_session_goes_on(served: Served) -> None:
    held = chat_stream("This never arrives in full.", pause_after_chunks=1)
    served.fake.queue(held, chat_stream("Going on."))
    started: list[str] = []
    announced = asyncio.Event()

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        started.append(message or "")
        announced.set()

    async with served.client() as client:
        call = asyncio.create_task(
            client.call_tool(
                "pi_run", {"prompt": "Take long", "cwd": str(served.cwd)},
                progress_callback=on_progress,
            )
        )  # fmt: skip
        await asyncio.wait_for(announced.wait(), 30)
        await held.until_paused()
        call.cancel()  # the SDK's client sends notifications/cancelled
        with pytest.raises(asyncio.CancelledError):
            await call
        session_id = started[0].split()[1]
        reply = await client.call_tool("pi_reply", {"session_id": session_id, "prompt": "Go on"})
    assert not reply.is_error, text_of(reply)
    assert reply.structured_content["text"] == "Going on."
    assert served.request_texts(1)[-2:] == ["Take long", "Go on"]


async def test_max_cost_aborts_the_run_when_passed(served: Served) -> None:
    served.models(chat_models_json(served.fake.base_url, cost={"input": 100000, "output": 0}))
    served.fake.queue(chat_stream(tool_calls=[("ls", {})]), chat_stream("Never needed."))
    async with served.client() as client:
        result = await client.call_tool(
            "pi_run", {"prompt": "Spend", "cwd": str(served.cwd), "max_cost": 0.5}
        )
    assert not result.is_error, text_of(result)
    facts = result.structured_content
    assert facts["status"] == "budget exceeded"
    assert facts["cost"] >= 1.0  # 10 input tokens at $100,000 a million


async def test_runs_go_on_in_parallel(served: Served) -> None:
    held = chat_stream("Slow answer.", pause_after_chunks=1)

    def route(request: Any) -> Any:
        slow = "slow" in json.dumps(request.json()["messages"])
        return held if slow else chat_stream("Quick answer.")

    served.fake.route(route)
    async with served.client() as client:
        slow = asyncio.create_task(
            client.call_tool("pi_run", {"prompt": "slow one", "cwd": str(served.cwd)})
        )
        await held.until_paused()
        quick = await client.call_tool("pi_run", {"prompt": "quick one", "cwd": str(served.cwd)})
        assert quick.structured_content["text"] == "Quick answer."
        assert not slow.done()
        held.resume()
        assert (await slow).structured_content["text"] == "Slow answer."


async def test_http_serves_the_same_tools(served: Served) -> None:
    from mcp.client.streamable_http import streamable_http_client

    served.fake.queue(chat_stream("Over HTTP."))
    pi = console_script("pi")
    process = await asyncio.create_subprocess_exec(
        pi, "mcp", "serve", "--http", "0", cwd=served.cwd, env=served.env,
        stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stderr is not None
        line = (await asyncio.wait_for(process.stderr.readline(), 60)).decode()
        assert "listening on http://127.0.0.1:" in line, line
        url = line.rsplit(" ", 1)[1].strip()
        async with (
            streamable_http_client(url) as (read, write),
            ClientSession(read, write) as client,
        ):
            await client.initialize()
            names = {tool.name for tool in (await client.list_tools()).tools}
            result = await client.call_tool("pi_run", {"prompt": "Hi", "cwd": str(served.cwd)})
    finally:
        process.terminate()
        await process.wait()
    assert names == {"pi_run", "pi_reply"}
    assert result.structured_content["text"] == "Over HTTP."


async def test_expose_tools_lists_and_runs_the_coding_tools(served: Served) -> None:
    (served.cwd / "notes.txt").write_text("alpha\nbeta\n")
    async with served.client("--expose-tools") as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        read = await client.call_tool("read", {"path": "notes.txt"})
        write = await client.call_tool("write", {"path": "new.txt", "content": "x"})
    assert {"read", "write", "edit", "bash", "grep", "find", "ls"} <= set(tools)
    assert tools["read"].input_schema["required"] == ["path"]
    assert not read.is_error and "alpha\nbeta" in text_of(read)
    assert write.is_error and "--approve" in text_of(write)
    assert not (served.cwd / "new.txt").exists()

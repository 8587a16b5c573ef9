"""A whole session driven through the SDK against the loopback fake server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.events.session import SessionBeforeSwitchResult
from pi_core.events.tool_events import ToolCallResult
from pi_core.messages import AssistantMessage, ToolResultMessage, UserMessage
from pi_core.messages.agent import CustomMessage
from pi_core.plugins.manager import LoadOptions
from pi_core.testing import PipeGate, chat_error, chat_stream
from tests.agent_session.conftest import Harness, plugin


def texts(body: dict[str, Any]) -> list[str]:
    """Every message content of a Chat Completions request, flattened to text."""
    out = []
    for message in body["messages"]:
        content = message.get("content")
        if isinstance(content, list):
            out.append(" ".join(part.get("text", "") for part in content))
        else:
            out.append(content or "")
    return out


async def test_tool_calls_run_and_everything_is_saved(harness: Harness) -> None:
    (harness.cwd / "notes.txt").write_text("the answer is 42\n")
    harness.server.queue(
        chat_stream(tool_calls=[("read", {"path": "notes.txt"}), ("ls", {"path": "."})]),
        chat_stream("It says 42."),
    )
    session = await harness.session(tools=["read", "ls"])
    await session.prompt("What do the notes say?")

    assert session.get_last_assistant_text() == "It says 42."
    second = harness.request(1)
    tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
    assert "the answer is 42" in tool_messages[0]["content"]
    assert "notes.txt" in tool_messages[1]["content"]
    assert [t["function"]["name"] for t in harness.request(0)["tools"]] == ["read", "ls"]
    lines = [json.loads(line) for line in Path(session.session_file or "").read_text().splitlines()]
    roles = [line["message"]["role"] for line in lines if line["type"] == "message"]
    assert roles == ["user", "assistant", "toolResult", "toolResult", "assistant"]
    stats = session.get_session_stats()
    assert stats["toolCalls"] == 2 and stats["assistantMessages"] == 2
    assert stats["tokens"]["input"] == 20


async def test_event_order_for_a_tool_round(harness: Harness) -> None:
    harness.server.queue(chat_stream(tool_calls=[("ls", {})]), chat_stream("done"))
    session = await harness.session(tools=["ls"])
    await session.prompt("list")
    kinds = [t for t in harness.types() if t != "message_update"]
    assert kinds == [
        "agent_start", "turn_start",
        "message_start", "message_end",  # the prompt
        "message_start", "message_end",  # the assistant's tool call
        "tool_execution_start", "tool_execution_end",
        "message_start", "message_end",  # the tool result
        "turn_end", "turn_start",
        "message_start", "message_end",  # the answer
        "turn_end", "agent_end",
    ]  # fmt: skip


async def test_a_blocking_tool_call_plugin_tells_the_llm_why(harness: Harness) -> None:
    target = harness.cwd / "x.txt"

    def tool_call(event: Any) -> ToolCallResult | None:
        if event.tool_name == "write":
            return ToolCallResult(block=True, reason="writes are not allowed here")
        return None

    harness.server.queue(
        chat_stream(tool_calls=[("write", {"path": "x.txt", "content": "hi"})]),
        chat_stream("ok"),
    )
    session = await harness.session(plugin(tool_call=tool_call))
    await session.prompt("write it")
    assert not target.exists()
    result = next(m for m in session.messages if isinstance(m, ToolResultMessage))
    assert result.is_error
    assert "writes are not allowed here" in texts(harness.request(1))[-1]


async def test_tool_result_plugin_patches_what_the_llm_sees(harness: Harness) -> None:
    def tool_result(event: Any) -> dict[str, Any]:
        return {"content": [{"type": "text", "text": "[redacted]"}]}

    (harness.cwd / "secret.txt").write_text("password=hunter2")
    harness.server.queue(
        chat_stream(tool_calls=[("read", {"path": "secret.txt"})]), chat_stream("k")
    )
    session = await harness.session(plugin(tool_result=tool_result))
    await session.prompt("read")
    assert "hunter2" not in json.dumps(harness.request(1))
    assert "[redacted]" in texts(harness.request(1))[-1]


async def test_a_context_plugin_drops_messages_from_the_request_only(harness: Harness) -> None:
    def context(event: Any) -> dict[str, Any]:
        kept = [
            m for m in event.messages if "SECRET" not in json.dumps(m.model_dump(by_alias=True))
        ]
        return {"messages": kept}

    harness.server.queue(chat_stream("first"), chat_stream("second"))
    session = await harness.session(plugin(context=context))
    await session.prompt("SECRET plan")
    await session.prompt("public question")
    sent = texts(harness.request(1))
    assert not any("SECRET" in t for t in sent) and "public question" in sent[-1]
    assert any(
        isinstance(m, UserMessage) and "SECRET" in json.dumps(m.model_dump())
        for m in session.messages
    )


async def test_steering_mid_tools_skips_the_remaining_calls(harness: Harness) -> None:
    gate = PipeGate(harness.cwd.parent / "gate")
    first = f"{gate.shell_wait}; echo one"  # runs until the test opens the gate
    calls = [("bash", {"command": first}), ("bash", {"command": "echo two"})]
    harness.server.queue(chat_stream(tool_calls=calls), chat_stream("steered"))
    session = await harness.session()
    session.set_steering_mode("one-at-a-time")
    session.agent.options.tool_execution = "sequential"
    run = asyncio.ensure_future(session.prompt("run both"))
    await harness.seen("tool_execution_start")
    await session.steer("stop, do something else")
    gate.open()
    await asyncio.wait_for(run, 30)
    results = [m for m in session.messages if isinstance(m, ToolResultMessage)]
    assert "one" in results[0].content[0].text
    assert results[1].is_error and "Skipped" in results[1].content[0].text
    assert texts(harness.request(1))[-1] == "stop, do something else"
    queue_updates = [e for e in harness.events if e.type == "queue_update"]
    assert queue_updates[0].steering == ["stop, do something else"]
    assert queue_updates[-1].steering == []


async def test_follow_up_runs_when_the_agent_would_stop(harness: Harness) -> None:
    first = chat_stream("first answer", piece=4, pause_after_chunks=2)
    harness.server.queue(first, chat_stream("follow-up answer"))
    session = await harness.session()
    run = asyncio.ensure_future(session.prompt("one"))
    await harness.seen("message_update")  # streaming, and the server holds the rest back
    with pytest.raises(RuntimeError, match="streamingBehavior"):
        await session.prompt("unqueued")
    await session.prompt("and then this", streaming_behavior="followUp")
    first.resume()
    await asyncio.wait_for(run, 30)
    assert len(harness.server.requests) == 2
    assert texts(harness.request(1))[-1] == "and then this"
    assert session.get_last_assistant_text() == "follow-up answer"


async def test_custom_messages_with_each_delivery(harness: Harness) -> None:
    first = chat_stream("a", pause_after_chunks=2)
    harness.server.queue(first, chat_stream("b"), chat_stream("c"), chat_stream("d"))
    session = await harness.session()

    def note(tag: str) -> CustomMessage:
        return CustomMessage(custom_type="note", content=f"note {tag}")

    await session.send_custom_message(note("quiet"))  # no turn: recorded only
    assert harness.server.requests == []
    await session.send_custom_message(note("next"), deliver_as="nextTurn")
    run = asyncio.ensure_future(session.prompt("go"))
    await harness.seen("message_update")
    await session.send_custom_message(note("steer"), deliver_as="steer")
    await session.send_custom_message(note("later"), deliver_as="followUp")
    first.resume()
    await asyncio.wait_for(run, 30)
    first, second, third = (texts(harness.request(i)) for i in range(3))
    assert first[-3:] == ["note quiet", "go", "note next"]
    assert second[-1] == "note steer" and third[-1] == "note later"
    await session.send_custom_message(note("turn"), trigger_turn=True)
    assert texts(harness.request(3))[-1] == "note turn"
    file_lines = Path(session.session_file or "").read_text().splitlines()
    customs = [json.loads(line) for line in file_lines if '"custom_message"' in line]
    assert [c["content"] for c in customs] == [
        "note quiet", "note next", "note steer", "note later", "note turn"
    ]  # fmt: skip


async def test_a_retryable_529_is_retried_and_the_failure_leaves_the_context(
    harness: Harness,
) -> None:
    harness.server.queue(chat_error(529, "Overloaded"), chat_stream("recovered"))
    session = await harness.session()
    await session.prompt("hello")
    assert session.get_last_assistant_text() == "recovered"
    retry_events = [e for e in harness.events if e.type.startswith("auto_retry")]
    assert [e.type for e in retry_events] == ["auto_retry_start", "auto_retry_end"]
    assert retry_events[0].attempt == 1 and "529" in retry_events[0].error_message
    assert retry_events[1].success
    assert not any(isinstance(m, AssistantMessage) and m.error_message for m in session.messages)
    assert texts(harness.request(1)) == texts(harness.request(0))
    saved = Path(session.session_file or "").read_text()
    assert "529" in saved  # the failed attempt stays in the file for history


async def test_retries_give_up_after_max_retries_with_a_clear_error(harness: Harness) -> None:
    for _ in range(4):
        harness.server.queue(chat_error(503, "unavailable"))
    session = await harness.session()
    await session.prompt("hello")
    end = [e for e in harness.events if e.type == "auto_retry_end"][-1]
    assert not end.success and end.attempt == 3 and "503" in (end.final_error or "")
    assert len(harness.server.requests) == 4
    user = [m for m in session.messages if isinstance(m, UserMessage)]
    assert len(user) == 1  # the prompt is never lost


async def test_abort_cancels_a_waiting_retry(harness: Harness) -> None:
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"retry": {"baseDelayMs": 5000, "provider": {"maxRetries": 0}}})
    )
    harness.server.queue(chat_error(500, "boom"))
    session = await harness.session()
    run = asyncio.ensure_future(session.prompt("hello"))
    await harness.seen("auto_retry_start")
    await session.abort()
    await asyncio.wait_for(run, 30)
    end = [e for e in harness.events if e.type == "auto_retry_end"][-1]
    assert end.final_error == "Retry cancelled" and len(harness.server.requests) == 1


async def test_a_plugin_can_cancel_a_switch(harness: Harness) -> None:
    harness.server.queue(chat_stream("saved"))
    calls: list[str] = []

    def session_before_switch(event: Any) -> SessionBeforeSwitchResult:
        calls.append(event.reason)
        return SessionBeforeSwitchResult(cancel=True)

    session = await harness.session(plugin(session_before_switch=session_before_switch))
    await session.prompt("keep me")
    before = session.session_file
    assert await session.new_session() == {"cancelled": True}
    assert session.session_file == before and calls == ["new"]
    assert session.get_last_assistant_text() == "saved"


async def test_new_session_and_switch_back_restores_messages_and_model(harness: Harness) -> None:
    harness.server.queue(chat_stream("one"), chat_stream("two"))
    seen: list[tuple[str, str]] = []

    def session_start(event: Any) -> None:
        seen.append(("start", event.reason))

    def session_shutdown(event: Any) -> None:
        seen.append(("shutdown", event.reason))

    session = await harness.session(
        plugin(session_start=session_start, session_shutdown=session_shutdown)
    )
    await session.prompt("first session")
    first = session.session_file
    assert (await session.new_session())["cancelled"] is False
    assert session.messages == [] and session.session_file != first
    await session.prompt("second session")
    assert (await session.switch_session(first or ""))["cancelled"] is False
    assert session.get_last_assistant_text() == "one"
    assert session.model is not None and session.model.id == "fake-model"
    assert seen == [("start", "startup"), ("shutdown", "new"), ("start", "new"),
                    ("shutdown", "resume"), ("start", "resume")]  # fmt: skip


async def test_fork_from_a_user_message_starts_a_new_file(harness: Harness) -> None:
    harness.server.queue(chat_stream("one"), chat_stream("two"))
    session = await harness.session()
    await session.prompt("question one")
    await session.prompt("question two")
    original = session.session_file
    entries = session.session_manager.get_entries()
    second_user = [e for e in entries if e.type == "message" and e.message.role == "user"][1]
    result = await session.fork(second_user.id)
    assert result == {"cancelled": False, "selected_text": "question two"}
    assert session.session_file != original
    assert [m.role for m in session.messages] == ["user", "assistant"]
    assert Path(original or "").exists()


async def test_tree_navigation_moves_the_leaf_in_the_same_file(harness: Harness) -> None:
    harness.server.queue(chat_stream("one"), chat_stream("two"), chat_stream("three"))
    session = await harness.session()
    await session.prompt("question one")
    await session.prompt("question two")
    file = session.session_file
    users = [e for e in session.session_manager.get_entries()
             if e.type == "message" and e.message.role == "user"]  # fmt: skip
    result = await session.navigate_tree(users[1].id)
    assert result["editor_text"] == "question two" and not result["cancelled"]
    assert [m.role for m in session.messages] == ["user", "assistant"]
    await session.prompt("question two, rephrased")
    assert session.session_file == file
    siblings = session.session_manager.get_children(users[1].parent_id)
    assert len(siblings) == 2  # the old branch and the new one share a parent
    assert texts(harness.request(2))[-1] == "question two, rephrased"
    assert "question two" not in texts(harness.request(2))[:-1]


async def test_commands_input_templates_and_before_agent_start(harness: Harness) -> None:
    prompts = harness.cwd / ".pi" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "review.md").write_text("Review $1 carefully, then $@")
    ran: list[str] = []

    def register_commands(register: Any) -> None:
        register("hello", lambda args, ctx: ran.append(args), description="say hello")

    def input(event: Any) -> dict[str, Any] | None:
        if event.text == "swallow":
            return {"action": "handled"}
        return {"action": "transform", "text": event.text.replace("FOO", "BAR")}

    def before_agent_start(event: Any) -> dict[str, Any]:
        return {"system_prompt": event.system_prompt + "\nEXTRA RULE",
                "message": {"custom_type": "ctx", "content": "injected"}}  # fmt: skip

    harness.server.queue(chat_stream("ok"))
    session = await harness.session(
        plugin(register_commands=register_commands, input=input,
               before_agent_start=before_agent_start)
    )  # fmt: skip
    await session.prompt("/hello world")
    await session.prompt("swallow")
    assert ran == ["world"] and harness.server.requests == []
    await session.prompt("/review main.py FOO")
    body = harness.request(0)
    assert texts(body)[-2:] == ["Review main.py carefully, then main.py BAR", "injected"]
    assert body["messages"][0]["content"].endswith("EXTRA RULE")
    assert session.base_system_prompt and not session.base_system_prompt.endswith("EXTRA RULE")


async def test_active_tools_change_the_request_and_the_system_prompt(harness: Harness) -> None:
    harness.server.queue(chat_stream("a"), chat_stream("b"))
    session = await harness.session()
    assert session.get_active_tool_names() == ["read", "bash", "edit", "write"]
    await session.prompt("one")
    session.set_active_tools(["read", "grep", "nonexistent"])
    await session.prompt("two")
    assert [t["function"]["name"] for t in harness.request(1)["tools"]] == ["read", "grep"]
    assert "grep" in harness.request(1)["messages"][0]["content"]
    assert "- bash" not in harness.request(1)["messages"][0]["content"]


async def test_user_bash_goes_into_the_context_and_double_bang_does_not(harness: Harness) -> None:
    harness.server.queue(chat_stream("seen"))
    session = await harness.session()
    chunks: list[str] = []
    result = await session.execute_bash("echo visible", chunks.append)
    await session.execute_bash("echo hidden", exclude_from_context=True)
    assert result.exit_code == 0 and "visible" in "".join(chunks)
    await session.prompt("what ran?")
    sent = " ".join(texts(harness.request(0)))
    assert "echo visible" in sent and "hidden" not in sent
    assert '"bashExecution"' in Path(session.session_file or "").read_text()


async def test_missing_key_is_one_clear_line_and_the_prompt_is_kept(harness: Harness) -> None:
    models = json.loads((harness.agent_dir / "models.json").read_text())
    del models["providers"]["fake"]["apiKey"]
    (harness.agent_dir / "models.json").write_text(json.dumps(models))
    session = await harness.session()
    with pytest.raises(LookupError, match="No API key for provider 'fake'"):
        await session.prompt("hello")
    assert harness.server.requests == []


async def test_a_provider_error_mid_stream_keeps_the_partial_answer(harness: Harness) -> None:
    harness.server.queue(chat_stream("partial answer here", cut_after_chunks=3))
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"retry": {"enabled": False}})
    )
    session = await harness.session()
    await session.prompt("hello")
    last = session.messages[-1]
    assert isinstance(last, AssistantMessage) and last.stop_reason == "error"
    assert last.error_message and last.content and "partial" in json.dumps(last.model_dump())
    assert isinstance(session.messages[0], UserMessage)
    saved = Path(session.session_file or "").read_text()
    assert '"hello"' in saved and "partial" in saved


async def test_manual_compaction_without_a_plugin_says_what_to_install(harness: Harness) -> None:
    harness.server.queue(*(chat_stream("x" * 400) for _ in range(3)))
    blocked = LoadOptions(extension_paths=[], blocked=["compaction"])  # the default compaction
    session = await harness.session(load_options=blocked)
    for index in range(3):
        await session.prompt(f"message {index} " + "y" * 400)
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"compaction": {"keepRecentTokens": 50}})
    )
    session.settings.reload()
    with pytest.raises(RuntimeError, match="pi-plugin-compaction"):
        await session.compact()
    end = [e for e in harness.events if e.type == "compaction_end"][-1]
    assert "pi-plugin-compaction" in (end.error_message or "")


async def test_a_compaction_plugin_summary_replaces_history(harness: Harness) -> None:
    def session_before_compact(event: Any) -> dict[str, Any]:
        prep = event.preparation
        return {"compaction": {"summary": "SUMMARY OF EARLIER WORK",
                               "firstKeptEntryId": prep.first_kept_entry_id,
                               "tokensBefore": prep.tokens_before}}  # fmt: skip

    harness.server.queue(*(chat_stream("x" * 400) for _ in range(4)))
    session = await harness.session(plugin(session_before_compact=session_before_compact))
    for index in range(3):
        await session.prompt(f"message {index} " + "y" * 400)
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"compaction": {"keepRecentTokens": 50}})
    )
    session.settings.reload()
    result = await session.compact()
    assert result.summary == "SUMMARY OF EARLIER WORK"
    await session.prompt("after compaction")
    sent = texts(harness.request(3))
    assert "SUMMARY OF EARLIER WORK" in sent[1] and "message 0" not in " ".join(sent)

"""Automatic compaction, overflow recovery, branch summaries, held bash output, model restore."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pi_core.messages import AssistantMessage
from pi_core.messages.agent import BashExecutionMessage
from pi_core.testing import chat_error, chat_stream
from tests.agent_session.conftest import Harness, plugin
from tests.agent_session.test_session_flow import texts


def summarizer(label: str) -> Any:
    """A compaction plugin that records why it ran."""
    calls: list[str] = []

    def session_before_compact(event: Any) -> dict[str, Any]:
        calls.append(event.preparation.first_kept_entry_id)
        prep = event.preparation
        return {"compaction": {"summary": label, "firstKeptEntryId": prep.first_kept_entry_id,
                               "tokensBefore": prep.tokens_before}}  # fmt: skip

    return plugin(session_before_compact=session_before_compact), calls


async def test_going_over_the_threshold_compacts_after_the_turn(harness: Harness) -> None:
    models = json.loads((harness.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"][0]["contextWindow"] = 20_000
    (harness.agent_dir / "models.json").write_text(json.dumps(models))
    settings = {"compaction": {"reserveTokens": 4_000, "keepRecentTokens": 100}}
    harness.agent_dir.joinpath("settings.json").write_text(json.dumps(settings))
    compactor, calls = summarizer("THRESHOLD SUMMARY")
    harness.server.queue(
        chat_stream("small", usage=(1_000, 10)),
        chat_stream("big", usage=(17_000, 10)),
        chat_stream("after"),
    )
    session = await harness.session(compactor)
    await session.prompt("one " + "x" * 800)
    assert calls == []
    await session.prompt("two " + "y" * 800)
    assert len(calls) == 1
    kinds = [e.type for e in harness.events if e.type.startswith("compaction")]
    assert kinds == ["compaction_start", "compaction_end"]
    start = next(e for e in harness.events if e.type == "compaction_start")
    assert start.reason == "threshold"
    await session.prompt("three")
    assert "THRESHOLD SUMMARY" in texts(harness.request(2))[1]


async def test_a_context_overflow_compacts_and_retries_once(harness: Harness) -> None:
    compactor, calls = summarizer("OVERFLOW SUMMARY")
    harness.server.queue(
        chat_stream("first " * 100),
        chat_stream("second " * 100),
        chat_error(400, "This model's maximum context length is 128000 tokens. However, your "
                   "messages resulted in 130000 tokens.", "invalid_request_error"),
        chat_stream("fits now"),
    )  # fmt: skip
    session = await harness.session(compactor)
    harness.agent_dir.joinpath("settings.json").write_text(
        json.dumps({"compaction": {"keepRecentTokens": 50}})
    )
    session.settings.reload()
    await session.prompt("a " + "x" * 600)
    await session.prompt("b " + "y" * 600)
    await session.prompt("c " + "z" * 600)
    assert len(calls) == 1
    end = [e for e in harness.events if e.type == "compaction_end"][-1]
    assert end.reason == "overflow" and end.will_retry
    assert session.get_last_assistant_text() == "fits now"
    retried = texts(harness.request(3))
    assert "OVERFLOW SUMMARY" in retried[1] and retried[-1].startswith("c ")
    assert not any(isinstance(m, AssistantMessage) and m.error_message for m in session.messages)


async def test_tree_navigation_with_a_plugin_summary(harness: Harness) -> None:
    def session_before_tree(event: Any) -> dict[str, Any]:
        left = len(event.preparation.entries_to_summarize)
        return {"summary": {"summary": f"left {left} entries behind"}}

    harness.server.queue(chat_stream("one"), chat_stream("two"), chat_stream("three"))
    session = await harness.session(plugin(session_before_tree=session_before_tree))
    await session.prompt("first")
    await session.prompt("second")
    users = [e for e in session.session_manager.get_entries()
             if e.type == "message" and e.message.role == "user"]  # fmt: skip
    result = await session.navigate_tree(users[1].id, summarize=True, label="retry")
    assert result["summary_entry"] is not None
    assert result["summary_entry"].summary == "left 1 entries behind"
    assert session.session_manager.get_label(result["summary_entry"].id) == "retry"
    await session.prompt("second, again")
    assert "left 1 entries behind" in " ".join(texts(harness.request(2)))


async def test_bash_output_waits_while_streaming_and_joins_before_the_next_prompt(
    harness: Harness,
) -> None:
    answer = chat_stream("streaming " * 20, piece=4, pause_after_chunks=3)
    harness.server.queue(answer, chat_stream("ok"))
    session = await harness.session()
    run = asyncio.ensure_future(session.prompt("talk"))
    await harness.seen("message_update")  # streaming, and the server holds the rest back
    await session.execute_bash("echo during")
    assert not any(isinstance(m, BashExecutionMessage) for m in session.messages)
    answer.resume()
    await asyncio.wait_for(run, 30)
    assert isinstance(session.messages[-1], AssistantMessage)  # not wedged into the run
    await session.prompt("next")
    sent = texts(harness.request(1))
    assert "Ran `echo during`" in sent[-2] and sent[-1] == "next"


async def test_model_and_thinking_level_are_restored_when_the_session_reopens(
    harness: Harness,
) -> None:
    models = json.loads((harness.agent_dir / "models.json").read_text())
    models["providers"]["fake"]["models"].append(
        {"id": "thinker", "reasoning": True, "contextWindow": 64000, "maxTokens": 1000}
    )
    (harness.agent_dir / "models.json").write_text(json.dumps(models))
    selected: list[str] = []

    def model_select(event: Any) -> None:
        selected.append(f"{event.model.id}:{event.source}")

    harness.server.queue(chat_stream("hi"))
    session = await harness.session(plugin(model_select=model_select))
    await session.set_model(session.model_registry.find("fake", "thinker"))  # type: ignore[arg-type]
    session.set_thinking_level("high")
    await session.prompt("remember me")
    path = session.session_file
    await session.shutdown()
    from pi_core.session.manager import SessionManager

    reopened = await harness.session(session=SessionManager.open(path or ""), model=None)
    assert reopened.model is not None and reopened.model.id == "thinker"
    assert reopened.thinking_level == "high"
    assert selected == ["thinker:set"]
    assert [t for t in harness.types() if t == "thinking_level_changed"]


async def test_a_plugin_can_cancel_a_fork(harness: Harness) -> None:
    harness.server.queue(chat_stream("one"))
    session = await harness.session(plugin(session_before_fork=lambda event: {"cancel": True}))
    await session.prompt("only")
    before = Path(session.session_file or "").read_text()
    user = next(e for e in session.session_manager.get_entries() if e.type == "message")
    assert (await session.fork(user.id))["cancelled"] is True
    assert Path(session.session_file or "").read_text() == before
    assert len(list(harness.agent_dir.glob("sessions/**/*.jsonl"))) == 1


async def test_plugins_read_the_session_but_cannot_write_it(harness: Harness) -> None:
    seen: dict[str, Any] = {}

    def agent_end(event: Any, ctx: Any) -> None:
        seen["entries"] = len(ctx.session.get_entries())
        seen["file"] = ctx.session.get_session_file()
        try:
            ctx.session.append_message(event.messages[-1])
        except AttributeError as error:
            seen["refused"] = str(error)

    harness.server.queue(chat_stream("hello"))
    session = await harness.session(plugin(agent_end=agent_end))
    await session.prompt("hi")
    assert seen["entries"] >= 2 and seen["file"] == session.session_file
    assert "read-only" in seen["refused"]


async def test_send_user_message_prompts_without_template_expansion(harness: Harness) -> None:
    prompts = harness.cwd / ".pi" / "prompts"
    prompts.mkdir(parents=True)
    (prompts / "fix.md").write_text("Fix everything in $1")
    harness.server.queue(chat_stream("ok"))
    session = await harness.session()
    await session.send_user_message("/fix main.py")
    assert texts(harness.request(0))[-1] == "/fix main.py"


async def test_a_message_sent_from_agent_end_runs_before_prompt_returns(harness: Harness) -> None:
    sent: list[str] = []

    def agent_end(event: Any, ctx: Any) -> None:
        if not sent:  # answer the first run once, as a Stop hook that blocks does
            sent.append("again")
            ctx.send_user_message("once more", deliver_as="followUp")

    harness.server.queue(chat_stream("first"), chat_stream("second"))
    session = await harness.session(plugin(agent_end=agent_end))
    await asyncio.wait_for(session.prompt("hi"), 30)  # it used to wait for itself forever
    assert len(harness.server.requests) == 2
    assert texts(harness.request(1))[-1] == "once more"
    assert session.get_last_assistant_text() == "second"


async def test_prompt_of_a_command_returns_after_the_turn_it_started(harness: Harness) -> None:
    async def ask(args: str, ctx: Any) -> None:
        ctx.send_user_message(f"Question: {args}")

    def register_commands(register: Any) -> None:
        register("ask", ask)

    harness.server.queue(chat_stream("Because."))
    session = await harness.session(plugin(register_commands=register_commands))
    await asyncio.wait_for(session.prompt("/ask why"), 30)
    assert texts(harness.request(0))[-1] == "Question: why"
    assert session.get_last_assistant_text() == "Because."
